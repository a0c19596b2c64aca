// One `pulumi up` converges against a flaky service, and nothing is made twice. A fleet of 100
// agents with 100 bound lines and a shared voice, action and webhook, under a fixed-seed mix:
// 20% of writes refused with 503 before any work, 10% of all requests throttled (429, Retry-After
// 1), 5% of writes done and then their reply lost. The emulator counts committed writes per route,
// so duplicates are counted exactly.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { changes, useEmulatorStack } from "../helpers/e2e.js";

const N = 100;
const TOKEN = `e2e-flaky-${randomUUID()}`;
export const FAULT_MIX = [
  { route: "*", method: "POST", status: 503, rate: 0.2 },
  { route: "*", status: 429, retryAfterSeconds: 1, rate: 0.1 },
  { route: "*", method: "POST", phase: "after", reset: true, rate: 0.05 },
] as const;
let numbers: string[] = [];
const ctx = useEmulatorStack({
  name: "flaky",
  project: "fleet",
  program: "dist/bench/programs/fleet.js",
  token: TOKEN,
  before: async ({ emu }) => {
    numbers = emu.addNumbers(TOKEN, { count: N, prefix: "+1555700" }).numbers;
    return { "fleet:agents": { value: String(N) }, "fleet:numbers": { value: JSON.stringify(numbers) } };
  },
});
const writes = (route: string) => ctx.emu.stats.writes[`POST ${route}`] ?? 0;

describe(`a ${N}-agent fleet under the fault mix`, () => {
  it("one up succeeds and the service holds exactly what is declared", async () => {
    ctx.emu.faults.reseed(20261122);
    for (const rule of FAULT_MIX) ctx.emu.faults.add({ ...rule });
    const started = performance.now();
    const up = await ctx.t.stack.up();
    const seconds = (performance.now() - started) / 1000;
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ create: 2 * N + 4 });
    const f = ctx.emu.stats.faults;
    const fired = (phase: "before" | "after") => Object.values(f[phase]).reduce((a, b) => a + b, 0);
    console.log(
      `fault mix: up in ${seconds.toFixed(1)} s, ${ctx.emu.stats.total} requests for ${2 * N + 3} objects; ` +
        `${fired("before")} before-work faults, ${fired("after")} replies lost after the work`,
    );
    // The mix did bite: replies were lost after work was done, so reconciliation had to run.
    expect(fired("after")).toBeGreaterThan(0);
    // Exactly one committed create per declared object: zero duplicates of any kind.
    expect(writes("/v1/agents/create")).toBe(N);
    expect(writes("/v1/voices/create")).toBe(1);
    expect(writes("/v1/actions/create")).toBe(1);
    expect(writes("/v1/webhooks/create")).toBe(1);
    expect(await ctx.client.agents.list.all()).toHaveLength(N);
    const lines = await ctx.client.numbers.list.all();
    const agentIds = new Set((await ctx.client.agents.list.all()).map((a) => a.id));
    expect(lines.filter((n) => numbers.includes(n.number) && n.inbound_agent && agentIds.has(n.inbound_agent.id))).toHaveLength(N);
  }, 600_000);

  it("preview --refresh --expect-no-changes passes, still under the faults", async () => {
    await expect(ctx.t.stack.preview({ refresh: true, expectNoChanges: true })).resolves.toBeDefined();
  }, 300_000);

  it("destroy succeeds under the same faults and unbinds every line", async () => {
    const destroy = await ctx.t.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    const bound = (await ctx.client.numbers.list.all()).filter((n) => numbers.includes(n.number) && n.inbound_agent);
    expect(bound).toHaveLength(0);
  }, 300_000);
});
