// A stack under a tight per-token rate limit: `pulumi up` and `pulumi refresh` meet 429s (counted
// by the emulator, so the test knows the limit was met, not merely configured) and converge with
// no error, pacing themselves to the limit (issue 32).
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { changes, useEmulatorStack } from "../helpers/e2e.js";

const N = 12;
const TOKEN = `e2e-limited-${randomUUID()}`;
const ctx = useEmulatorStack({
  name: "limited",
  project: "fleet",
  program: "dist/bench/programs/fleet.js",
  token: TOKEN,
  // Far below what the engine sends at once: the first burst of creates meets 429s.
  rateLimit: { perSecond: 8, burst: 4 },
  before: async ({ emu }) => {
    const numbers = emu.addNumbers(TOKEN, { count: N, prefix: "+1555710" }).numbers;
    return { "fleet:agents": { value: String(N) }, "fleet:numbers": { value: JSON.stringify(numbers) } };
  },
});
const limited = () => Object.values(ctx.emu.stats.rateLimited).reduce((a, b) => a + b, 0);

describe("a stack under the service's rate limit", () => {
  it("up and refresh meet 429s and converge with no error, saying they wait on the limit", async () => {
    const up = await ctx.t.stack.up();
    const upLimited = limited();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ create: 2 * N + 4 });
    expect(upLimited).toBeGreaterThan(0);
    expect(ctx.emu.stats.writes["POST /v1/agents/create"]).toBe(N);
    expect(`${up.stdout}\n${up.stderr}`).toContain("waiting on the service's rate limit (it answered 429)");

    ctx.emu.resetStats();
    const refresh = await ctx.t.stack.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    // Converged: the refresh finds every object as the up left it.
    expect(changes(refresh.summary.resourceChanges ?? {})).toEqual({});
    expect(limited()).toBeGreaterThan(0);
    console.log(`rate limit 8/s: up met ${upLimited} 429s, refresh ${limited()} (of ${ctx.emu.stats.total} requests)`);
  });
});
