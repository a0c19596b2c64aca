// Rate decisions come from a seeded PRNG: the same seed and the same sequential requests give the
// same decisions, so a failing run can be replayed.
import { describe, expect, it } from "vitest";
import { FaultInjector, type FaultRuleInput } from "voiceagent-emulator";
import { testEmulator, type TestEmulator } from "../helpers/emulator.js";

const CREATE = "POST /v1/agents/create";
const rules: FaultRuleInput[] = [
  { phase: "after", route: "/v1/agents/create", status: 503, rate: 0.3 },
  { route: "/v1/agents/create", status: 429, rate: 0.2 },
];

/** 40 sequential creates: each status, then what was committed. */
async function run(t: TestEmulator): Promise<{ statuses: number[]; writes: number; agents: number }> {
  const voice = t.emu.seeds.get(t.tokenA)!.voices[0];
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++)
    statuses.push((await t.call("POST", "/v1/agents/create", { prompt: `p${i}`, voice })).status);
  const agents = (await t.call("GET", "/v1/agents/list?size=100")).json.total as number;
  return { statuses, writes: t.emu.stats.writes[CREATE] ?? 0, agents };
}

describe("seeded fault rates", () => {
  it("the same seed gives the same decisions; another seed differs", async () => {
    const a = await run(await testEmulator({ faults: rules, faultSeed: 1234 }));
    const b = await run(await testEmulator({ faults: rules, faultSeed: 1234 }));
    const c = await run(await testEmulator({ faults: rules, faultSeed: 99 }));
    expect(b).toEqual(a);
    expect(c.statuses).not.toEqual(a.statuses);
    // Both phases fired, and every write the service answered or lost was committed exactly once.
    expect(new Set(a.statuses)).toEqual(new Set([200, 429, 503]));
    expect(a.writes).toBe(a.statuses.filter((s) => s !== 429).length);
    expect(a.agents).toBe(a.writes);
  });

  it("POST /admin/faults { seed } reseeds without adding a rule, and the run replays", async () => {
    const first = await testEmulator({ faults: rules, faultSeed: 7 });
    const expected = await run(first);
    const t = await testEmulator({ faults: rules });
    const res = await t.call("POST", "/admin/faults", { seed: 7 });
    expect(res).toMatchObject({ status: 200, json: { seed: 7 } });
    expect(res.json.fault).toBeUndefined();
    expect((await t.call("GET", "/admin/faults")).json).toMatchObject({
      seed: 7,
      faults: [{ rate: 0.3 }, { rate: 0.2 }],
    });
    expect((await run(t)).statuses).toEqual(expected.statuses);
  });

  it("a rule and a seed in one call; the seed without a rule is random but readable", async () => {
    const t = await testEmulator();
    expect(Number.isInteger(t.emu.faults.seed)).toBe(true);
    const res = await t.call("POST", "/admin/faults", { seed: 42, route: "/v1/voices/list", status: 500, rate: 0.5 });
    expect(res.json).toMatchObject({ seed: 42, fault: { phase: "before", route: "/v1/voices/list", rate: 0.5 } });
    expect(t.emu.faults.seed).toBe(42);
  });

  it("rate decisions are the PRNG's: 10,000 draws at 0.25 fire about a quarter of the time", () => {
    const f = new FaultInjector([{ route: "/v1/voices", status: 500, rate: 0.25 }], 2024);
    let fired = 0;
    for (let i = 0; i < 10_000; i++) if (f.decide("before", "GET", "/v1/voices")) fired += 1;
    expect(fired).toBeGreaterThan(2300);
    expect(fired).toBeLessThan(2700);
  });

  it("rejects bad rules and seeds, naming the field, and changes nothing", async () => {
    const t = await testEmulator({ faultSeed: 5 });
    const cases: [unknown, (string | number)[]][] = [
      [{ phase: "after", status: 429 }, ["body", "status"]],
      [{ phase: "later", reset: true }, ["body", "phase"]],
      [{ status: 503, cout: 1 }, ["body"]],
      [{ route: "/v1/agents/create" }, ["body"]],
      [{ seed: -1 }, ["body", "seed"]],
      [{ seed: 2 ** 32 }, ["body", "seed"]],
      [{ seed: 9, status: 503, rate: 2 }, ["body", "rate"]],
    ];
    for (const [body, loc] of cases) {
      const res = await t.call("POST", "/admin/faults", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(
        res.json.detail.map((d: { loc: unknown }) => d.loc),
        JSON.stringify(body),
      ).toContainEqual(loc);
    }
    expect((await t.call("GET", "/admin/faults")).json).toEqual({ seed: 5, faults: [] });
  });
});
