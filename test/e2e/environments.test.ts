// examples/environments as a user runs it (copied out of the repository, pulumi-voiceagent from
// the packed tarball): config moves the main line between agents in place; a test call is
// refused at preview outside allowedDestinations, placed inside them, replaced by ending the old
// call first; destroy ends the call and unbinds the line without cancelling the number.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/consumer.js";
import { changes } from "../helpers/e2e.js";
import { useConsumer } from "../consumer/lifecycle.js";
import { GENERATION_PROBE, routesSince } from "../helpers/generation-probe.js";

// Type-checked as users run it (ts-node, the packed tarball's types): the one run of this example
// that is; test/e2e/recover.test.ts transpiles it, since there only its state matters.
const ctx = useConsumer({
  name: "example-environments",
  project: (tarball) => ({
    files: { copyFrom: path.join(REPO_ROOT, "examples/environments") },
    redirect: { "pulumi-voiceagent": `file:${tarball}` },
  }),
  config: {
    "voiceagent-environments:mainLine": "+15550010003",
    "voiceagent-environments:mainLineAgent": "support",
  },
});
const requests = (route: string) => ctx.emu.stats.byRoute[route] ?? 0;
/**
 * `--config` arguments of `pulumi up` or `preview`, which save the values in the stack's config as
 * `config set` does, without a CLI start of their own.
 */
const setting = (values: Record<string, string>) =>
  Object.entries(values).flatMap(([k, v]) => ["--config", `voiceagent-environments:${k}=${v}`]);

describe("examples/environments end to end", () => {
  let supportAgentId = "";
  let salesAgentId = "";

  it("binds the main line to support", async () => {
    await ctx.c.up();
    const out = await ctx.c.outputs();
    [supportAgentId, salesAgentId] = [String(out.supportAgentId), String(out.salesAgentId)];
    expect((await ctx.client.numbers.get("+15550010003")).inbound_agent?.id).toBe(supportAgentId);
  }, 120_000);

  it("a call to a number outside allowedDestinations fails at preview, before anything is dialled", async () => {
    const before = { ...ctx.emu.stats.byRoute };
    const preview = await ctx.c.pulumi(["preview", ...setting({ placeTestCall: "true", testCallTo: "+15559990000" })], {
      check: false,
    });
    expect(preview.code).not.toBe(0);
    // Names the property and the allow-list it broke, and says no call was placed.
    const out = preview.stdout + preview.stderr;
    expect(out).toContain("toNumber");
    expect(out).toContain("allowedDestinations");
    expect(out).toMatch(/nothing (was )?dialled|not dialled|no call (was )?(placed|made)/i);
    // Nothing but, at most, the generation probe (voiceagent:api auto), a fixed GET asked by the
    // other resources' checks, never by the failing call's.
    const sent = routesSince(ctx.emu.stats.byRoute, before);
    expect(Object.keys(sent).filter((route) => route !== GENERATION_PROBE)).toEqual([]);
    expect(sent[GENERATION_PROBE] ?? 0).toBeLessThanOrEqual(1);
  }, 60_000);

  // One up moves the line and places the call (a second up for the move alone would prove the same).
  it(`config moves the main line to sales in place without cancelling and places an allowed test call, none at preview; \
a change replaces the call, ending the old one first`, async () => {
    const moved = setting({ mainLineAgent: "sales", testCallTo: "+15557650001" });
    expect(changes(await ctx.c.preview(moved))).toEqual({ update: 1, create: 1 });
    expect(requests("POST /v1/calls/create")).toBe(0);
    const binds = requests("POST /v1/numbers/update");
    expect(changes(await ctx.c.up())).toEqual({ update: 1, create: 1 });
    const line = await ctx.client.numbers.get("+15550010003");
    expect(line.inbound_agent?.id).toBe(salesAgentId);
    expect(line.active).toBe(true);
    expect(requests("POST /v1/numbers/update") - binds).toBe(1);
    expect(requests("POST /v1/numbers/cancel")).toBe(0);
    const [first] = await ctx.client.calls.list.all();
    expect(first).toMatchObject({ status: "not_started", to_number: "+15557650001" });

    expect(changes(await ctx.c.up(setting({ testCallTo: "+15557650002" })))).toEqual({ replace: 1 });
    const calls = await ctx.client.calls.list.all();
    expect(calls.find((c) => c.id === first!.id)?.status).toBe("ended");
    expect(calls.find((c) => c.id !== first!.id)).toMatchObject({ status: "not_started", to_number: "+15557650002" });
  }, 120_000);

  it("destroy ends the test call and unbinds the main line, cancelling nothing", async () => {
    await ctx.c.destroy();
    expect(requests("POST /v1/numbers/cancel")).toBe(0);
    const line = await ctx.client.numbers.get("+15550010003");
    expect(line.active).toBe(true);
    expect(line.inbound_agent).toBeNull();
    expect((await ctx.client.calls.list.all()).map((c) => c.status)).toEqual(["ended", "ended"]);
  }, 60_000);
});
