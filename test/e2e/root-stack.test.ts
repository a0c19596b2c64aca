// The root stack, driven by the real CLI against the emulator: up, convergence, drift (an edit and an
// out-of-band deletion), bad input at preview, the token, destroy. Steps share one stack and run in order.
import { AgentSchema } from "pulumi-voiceagent/schemas";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findSecretInState } from "../helpers/pulumi-stack.js";
import { changes, useEmulatorStack } from "../helpers/e2e.js";
import { GENERATION_PROBE, routesSince } from "../helpers/generation-probe.js";

const TOKEN = `e2e-root-${randomUUID()}`;
const ctx = useEmulatorStack({ name: "root", project: "pulumi-voiceagent", program: "dist/index.js", token: TOKEN });
const out: Record<string, unknown> = {};
const PROBE = GENERATION_PROBE;
const sinceBy = (before: Record<string, number>) => routesSince(ctx.emu.stats.byRoute, before);

/**
 * Each step's time limit: a step runs up to three engine runs (up, preview --refresh, refresh), each
 * starting the CLI, the program and the provider; on a loaded machine (a load of 30 on 2 cores) one
 * takes over vitest's 60 s default.
 */
const STEP = { timeout: 240_000 };

describe("root stack end to end", STEP, () => {
  it("up creates everything the program declares", async () => {
    const up = await ctx.t.stack.up();
    // 7 resources and the stack itself.
    expect(up.summary.resourceChanges).toEqual({ create: 8 });
    for (const [k, v] of Object.entries(up.outputs)) out[k] = v.value;
    expect((await ctx.client.agents.list.all()).map((a) => a.id).sort()).toEqual(
      [out.supportAgentId, out.salesAgentId].sort(),
    );
    const number = await ctx.client.numbers.get("+15550010001");
    const support = { ...number, inbound_agent: AgentSchema.parse(number.inbound_agent) };
    expect(support.inbound_agent?.id).toBe(out.supportAgentId);
    expect(support.inbound_agent?.webhook?.id).toBe(out.webhookId);
    expect(support.inbound_agent?.voice.id).toBe(out.voiceId);
    expect((await ctx.client.numbers.get("+15550010002")).inbound_agent?.id).toBe(out.salesAgentId);
  });

  // An up diffs the program against the state as a preview does: that it changes nothing says a
  // preview would find nothing. A preview's one request, the probe, is current-kinds.test.ts's
  // ("a default-typed Voice with voiceagent:api auto fails at preview naming type"). The agent is
  // edited on the service first: a plain up compares with the last recorded state, as with every
  // Pulumi provider, so this up also proves it does not see the edit (a plain preview did, before).
  it("after an edit through the API, a second up changes nothing, and sends one request: the API generation probe", async () => {
    await ctx.client.agents.update(out.supportAgentId as string, { prompt: "Edited by hand in the console." });
    const before = { ...ctx.emu.stats.byRoute };
    const up = await ctx.t.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({});
    // voiceagent:api is auto: the provider process reads one page of the agent list, once, before
    // its first check answers (a GET carrying nothing of the program); nothing else, and no write.
    expect(sinceBy(before)).toEqual({ [PROBE]: 1 });
  });

  // The edit and an out-of-band deletion restored by one up --refresh (each had an engine run of its
  // own: an up --refresh, and a refresh then an up). The deletion comes after the preview --refresh,
  // which counts the reads of a refresh over resources that all exist.
  it("the edit shows in preview --refresh; up --refresh restores it and makes an agent deleted out of band again", async () => {
    const before = { ...ctx.emu.stats.byRoute };
    const preview = await ctx.t.stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 1 });
    expect(preview.stdout).toMatch(/prompt\s*:\s*"Edited by hand in the console\." => "You are the support line/);
    // Refresh reads in pages (issue 32): each collection holding a resource is listed once (5
    // listings: agents, voices, actions, webhooks, numbers) and no resource is read on its own; the
    // provider process also asks once per extension collection whether the server has those routes
    // (4 list probes: voices, actions, webhooks, numbers), and once which API generation it speaks
    // (the agent list's first page).
    const since = (list: boolean) =>
      Object.entries(ctx.emu.stats.byRoute)
        .filter(([route]) => route.startsWith("GET ") && route.endsWith("/list") === list)
        .reduce((n, [route, count]) => n + count - (before[route] ?? 0), 0);
    expect(since(false)).toBe(0);
    expect(since(true)).toBe(10);
    expect(ctx.emu.stats.byRoute[PROBE]! - (before[PROBE] ?? 0)).toBe(2);

    ctx.emu.store.db.prepare("DELETE FROM objects WHERE kind = 'agent' AND id = ?").run(out.salesAgentId);
    // up --refresh reads first: its refresh drops the deleted agent from state (were it still there,
    // the up would not create it again); then it puts the program's prompt back and makes the agent
    // again under a new id, its number (unbound on the service, the drift recorded) bound to it. A
    // `pulumi refresh` of its own runs the provider's same reads (secrets.test.ts and
    // flaky-call.test.ts run one).
    const up = await ctx.t.stack.up({ refresh: true });
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ update: 2, create: 1 });
    expect((await ctx.client.agents.get(out.supportAgentId as string)).prompt).toMatch(/^You are the support line/);
    const newSales = up.outputs.salesAgentId?.value as string;
    expect(newSales).not.toBe(out.salesAgentId);
    expect((await ctx.client.numbers.get("+15550010002")).inbound_agent?.id).toBe(newSales);
    // Nothing else drifts after it.
    const again = await ctx.t.stack.preview();
    expect(changes(again.changeSummary)).toEqual({});
    out.salesAgentId = newSales;
  });

  it("a bad input fails at preview naming the property, and nothing but the generation probe reaches the service", async () => {
    await ctx.t.stack.setConfig("pulumi-voiceagent:supportNumber", { value: "555-0100" });
    const before = { ...ctx.emu.stats.byRoute };
    await expect(ctx.t.stack.preview()).rejects.toThrow(/support-line.*number.*E\.164|number.*must be an E\.164/s);
    // At most the probe, a fixed GET (the other resources' checks ask it; the bad one's does not).
    expect(Object.keys(sinceBy(before)).filter((route) => route !== PROBE)).toEqual([]);
    expect(sinceBy(before)[PROBE] ?? 0).toBeLessThanOrEqual(1);
    // The bad number stays in the stack's config: the steps after it run no program (the state's
    // export, destroy), so removing it would be one more CLI start for nothing.
  });

  it("the token is in neither the exported state nor the state folder", async () => {
    expect(await findSecretInState(ctx.t, TOKEN)).toEqual([]);
  });

  it("destroy unbinds the numbers without cancelling them, and says agents are only forgotten", async () => {
    const destroy = await ctx.t.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 8 });
    // Says, for the agents, that they stay on the service (it has no delete).
    expect(destroy.stdout).toMatch(/\bagents?\b[^\n]*(no delete|left on the service|not deleted)/i);
    for (const n of ["+15550010001", "+15550010002"]) {
      const number = await ctx.client.numbers.get(n);
      expect(number.inbound_agent).toBeNull();
      expect(number.active).toBe(true);
    }
    expect(ctx.emu.stats.byRoute["POST /v1/numbers/cancel"]).toBeUndefined();
  });
});
