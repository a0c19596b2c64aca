// A call whose calls/create reply is lost after the service placed it: exactly one call exists,
// and the stack tracks it (destroy ends that one).
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { printedBy as failed, useEmulatorStack } from "../helpers/e2e.js";

const ctx = useEmulatorStack({
  name: "flaky-call",
  project: "call",
  program: "dist/test/e2e/fixtures/call/index.js",
  token: `e2e-call-${randomUUID()}`,
  config: { "call:from": { value: "+15550010001" }, "call:to": { value: "+15557650000" } },
});

describe("a call under after-commit loss", () => {
  it("is placed once and adopted, not dialled again", async () => {
    ctx.emu.faults.add({ route: "/v1/calls/create", method: "POST", phase: "after", reset: true, count: 1 });
    const up = await ctx.t.stack.up();
    const calls = await ctx.client.calls.list.all();
    expect(calls).toHaveLength(1);
    expect(ctx.emu.stats.writes["POST /v1/calls/create"]).toBe(1);
    expect(ctx.emu.stats.faults.after["POST /v1/calls/create"]).toBe(1);
    expect(up.outputs.callId?.value).toBe(calls[0]!.id);
    await ctx.t.stack.destroy();
    expect((await ctx.client.calls.get(calls[0]!.id)).status).toBe("ended");
  }, 180_000);

  it("a 503 the list never explains is reported as possibly placed, not dialled blindly: the next up places it once", async () => {
    ctx.emu.faults.add({ route: "/v1/calls/create", method: "POST", status: 503, count: 1 });
    const error = await ctx.t.stack.up().then(
      () => "the up succeeded",
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    // A slow service could still show the call: the error must not say it was not placed, and
    // it must say the client did not dial again on its own.
    expect(error).toMatch(/\bcall\b/);
    expect(error).toMatch(/may have/);
    expect(error).not.toMatch(/not made|not placed/);
    expect(error).toMatch(/not (be )?(sent|dialled|placed|made) again|at most once|not retried/i);
    // Printed as one error, not as the engine's list of a partial create's reasons.
    expect(error).not.toMatch(/error occurred/);
    expect(await ctx.client.calls.list.all()).toHaveLength(1);
    // The outcome outlives the run: a plain up sends nothing for it and says what settles it.
    const again = await failed(ctx.t.stack.up());
    expect(again).toMatch(/outcome of its create is unknown/);
    expect(again).toMatch(/`pulumi refresh`/);
    expect(ctx.emu.stats.writes["POST /v1/calls/create"]).toBe(1);
    // A refresh whose complete listings never show it drops it: the same up then places it, once.
    await ctx.t.stack.up({ refresh: true });
    const calls = await ctx.client.calls.list.all();
    expect(calls.filter((c) => c.status !== "ended")).toHaveLength(1);
    expect(ctx.emu.stats.writes["POST /v1/calls/create"]).toBe(2);
  }, 180_000);

  it("a lost reply whose new call the list cannot read: no up dials again; a refresh once it can takes that call", async () => {
    const creates = () => ctx.emu.stats.writes["POST /v1/calls/create"] ?? 0;
    const before = creates();
    // A new number to dial replaces the call: the old one is ended, a new one placed.
    await ctx.t.stack.setConfig("call:to", { value: "+15557650001" });
    ctx.emu.faults.add({ route: "/v1/calls/create", method: "POST", phase: "after", reset: true, count: 1 });
    ctx.emu.faults.add({
      route: "/v1/calls/list",
      phase: "after",
      items: { where: { status: "not_started" }, set: { user_id: 42 } },
    });
    try {
      expect(await failed(ctx.t.stack.up())).toMatch(/may have/);
      const again = await failed(ctx.t.stack.up());
      expect(again).toMatch(/outcome of its create is unknown/);
      expect(again).toMatch(/`pulumi refresh`/);
      expect(creates() - before).toBe(1);
    } finally {
      ctx.emu.faults.clear();
    }
    await ctx.t.stack.refresh();
    const placed = (await ctx.client.calls.list.all()).filter((c) => c.status !== "ended");
    expect(placed.map((c) => c.to_number)).toEqual(["+15557650001"]);
    const up = await ctx.t.stack.up();
    expect(up.outputs.callId?.value).toBe(placed[0]!.id);
    expect(creates() - before).toBe(1);
  }, 240_000);
});
