// Faults that strike after the work is committed: the client cannot tell the outcome, the service
// has the object, and the write counters say exactly how many times the work was done.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type FaultRuleInput, type RunningEmulator } from "voiceagent-emulator";
import { httpRequest, testEmulator } from "../helpers/emulator.js";
import { holdDelays } from "../helpers/held-delays.js";

const TOKEN = "after-token";
const CREATE = "POST /v1/agents/create";
let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function started(faults: FaultRuleInput[]) {
  emu = await startEmulator({ tokens: [TOKEN], seed: true, faults });
  const voice = emu.seeds.get(TOKEN)!.voices[0]!;
  const running = emu;
  return {
    emu: running,
    create: (prompt: string) => httpRequest(running.url, "POST", "/v1/agents/create", TOKEN, { prompt, voice }),
    agents: async () =>
      (await httpRequest(running.url, "GET", "/v1/agents/list", TOKEN)).json.items.map(
        (a: { prompt: string }) => a.prompt,
      ),
  };
}

describe("after-commit faults", () => {
  it("reset: the request fails with a connection error, yet the agent exists and was written once", async () => {
    const t = await started([{ phase: "after", route: "/v1/agents/create", reset: true, count: 1 }]);
    const failure = await t.create("lost reply").then(
      () => undefined,
      (err: NodeJS.ErrnoException) => err,
    );
    expect(failure?.code === "ECONNRESET" || /socket hang up/.test(failure?.message ?? "")).toBe(true);
    expect(await t.agents()).toEqual(["lost reply"]);
    expect(t.emu.stats.writes[CREATE]).toBe(1);
    expect(t.emu.stats.faults.after[CREATE]).toBe(1);
    expect(t.emu.stats.byRoute[CREATE]).toBe(1);
  });

  it("503: answered as an error, yet the agent exists and was written once", async () => {
    const t = await started([{ phase: "after", route: "/v1/agents/create", status: 503, count: 1 }]);
    const res = await t.create("done anyway");
    expect(res).toEqual({ status: 503, json: { detail: "Injected fault: 503" } });
    expect(await t.agents()).toEqual(["done anyway"]);
    expect(t.emu.stats.writes[CREATE]).toBe(1);
  });

  it("a before-work 503 commits nothing", async () => {
    const t = await started([{ route: "/v1/agents/create", status: 503, count: 1 }]);
    expect((await t.create("never made")).status).toBe(503);
    expect(await t.agents()).toEqual([]);
    expect(t.emu.stats.writes[CREATE]).toBeUndefined();
    expect(t.emu.stats.faults.before[CREATE]).toBe(1);
    expect(t.emu.stats.byRoute[CREATE]).toBe(1);
  });

  it("a read's reply can be lost after the read; no write is counted", async () => {
    const t = await started([{ phase: "after", route: "/v1/voices/list", method: "GET", reset: true, count: 1 }]);
    await expect(httpRequest(t.emu.url, "GET", "/v1/voices/list", TOKEN)).rejects.toThrow();
    expect((await httpRequest(t.emu.url, "GET", "/v1/voices/list", TOKEN)).status).toBe(200);
    expect(t.emu.stats.writes).toEqual({});
    expect(t.emu.stats.faults.after).toEqual({ "GET /v1/voices/list": 1 });
  });
});

describe("count, failed handlers and latency (in-process)", () => {
  it("a count-limited after rule fires on the next `count` committed writes, then stops", async () => {
    const t = await testEmulator({ faults: [{ phase: "after", route: "/v1/agents/create", status: 502, count: 2 }] });
    const voice = t.emu.seeds.get(t.tokenA)!.voices[0];
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await t.call("POST", "/v1/agents/create", { prompt: `a${i}`, voice })).status);
    expect(statuses).toEqual([502, 502, 200, 200]);
    expect(t.emu.stats.writes[CREATE]).toBe(4);
    expect(t.emu.stats.faults.after[CREATE]).toBe(2);
    expect((await t.call("GET", "/v1/agents/list")).json.total).toBe(4);
    expect(t.emu.faults.list()).toEqual([]);
  });

  it("a request the service refused commits nothing, is not counted, and leaves the rule armed", async () => {
    const t = await testEmulator({ faults: [{ phase: "after", route: "/v1/agents/*", reset: true, count: 1 }] });
    const refused = await t.call("POST", "/v1/agents/create", { prompt: "p", voice: randomUUID() });
    expect(refused.status).toBe(422);
    expect(t.emu.stats.writes).toEqual({});
    expect(t.emu.faults.list()).toMatchObject([{ remaining: 1 }]);
    const voice = t.emu.seeds.get(t.tokenA)!.voices[0];
    await expect(t.call("POST", "/v1/agents/create", { prompt: "p", voice })).rejects.toThrow(/destroyed/);
    expect(t.emu.stats.writes[CREATE]).toBe(1);
  });

  it("after-commit latency delays a reply, once the work is committed, that still arrives", async () => {
    const t = await testEmulator({ faults: [{ phase: "after", route: "/v1/agents/create", latencyMs: 120 }] });
    const voice = t.emu.seeds.get(t.tokenA)!.voices[0];
    // Proven by order, not by the clock: the reply waits on its latency while the agent it made
    // is already listed to a request sent after it.
    const held = holdDelays(t.emu.faults);
    const slow = t.call("POST", "/v1/agents/create", { prompt: "slow", voice });
    await Promise.race([
      held.untilHolding(1),
      slow.then(() => Promise.reject(new Error("answered without waiting on its latency"))),
    ]);
    expect(held.asked).toEqual([{ ms: 120, method: "POST", path: "/v1/agents/create" }]);
    expect(t.emu.stats.writes[CREATE]).toBe(1);
    expect((await t.call("GET", "/v1/agents/list")).json.items.map((a: { prompt: string }) => a.prompt)).toEqual([
      "slow",
    ]);
    expect(held.holding).toBe(1);
    held.release();
    expect((await slow).status).toBe(200);
  });
});
