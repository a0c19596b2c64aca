// A create whose outcome is unknown survives the run, on the native entry (the plain provider
// in-process against the emulator, as the engine drives it): kept as a partial create under a
// provisional id; the next run's diff is a change, its update sends nothing and says what to run;
// a refresh's read settles it from a complete listing (the object found takes the resource, an
// absent one leaves the state). The dynamic entry's run of the same through the CLI is in
// test/e2e/lines-purchases.test.ts and test/e2e/flaky-call.test.ts.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { PlainProvider } from "../../provider/plugin/protocol.js";
import { ProviderFailure } from "../../provider/plugin/protocol.js";
import { testEmulator, type TestEmulator } from "../helpers/emulator.js";
import { inProcessPlugin, PLUGIN_VERSION as VERSION, withoutVoiceagentEnv } from "../helpers/plugin-harness.js";

const at = (kind: string) => ({
  urn: `urn:pulumi:dev::proj::voiceagent:index:${kind}::r`,
  type: `voiceagent:index:${kind}`,
});

let t: TestEmulator;
let plugin: PlainProvider;
const notes: string[] = [];
const writes = (route: string) => t.emu.stats.writes[route] ?? 0;

beforeEach(withoutVoiceagentEnv);
afterEach(() => {
  vi.unstubAllEnvs();
  t.emu.faults.clear();
  notes.length = 0;
});
beforeAll(async () => {
  t = await testEmulator();
  const baseUrl = await t.emu.app.listen({ host: "127.0.0.1", port: 0 });
  const { Host } = await import("../../provider/host.js");
  plugin = inProcessPlugin(new Host({ notes: (text) => notes.push(text) })).provider;
  await plugin.configure({ config: { baseUrl, token: t.tokenA, version: VERSION, api: "2023" }, plainKeys: [] });
});
afterAll(async () => {
  await t.emu.app.close();
});

/** How a request failed: the provider's failure, or the test fails. */
const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable("it succeeded"),
    (e: unknown) => {
      expect(e).toBeInstanceOf(ProviderFailure);
      return e as ProviderFailure;
    },
  );

describe("a purchase whose reply is lost and whose new number the list cannot read", () => {
  it("is kept unsettled; the next update sends nothing and says to refresh; a refresh takes the number bought", async () => {
    const kind = at("PurchasedNumber");
    const inputs = { areaCode: "628" };
    t.emu.faults.add({ phase: "after", route: "/v1/numbers/buy", method: "POST", reset: true, count: 1 });
    t.emu.faults.add({
      phase: "after",
      route: "/v1/numbers/list",
      items: { where: { number: "+1628*" }, set: { user_id: 42 } },
    });
    const made = await failureOf(plugin.create({ ...kind, properties: inputs, preview: false }));
    expect(made.partial?.id).toMatch(/^unsettled-/);
    expect(made.partial?.reasons.join("\n")).toMatch(/`pulumi refresh`/);
    expect(writes("POST /v1/numbers/buy")).toBe(1);
    const id = made.partial!.id;
    const olds = made.partial!.properties;

    // The next `up`: the engine diffs (a change, never a replacement) and updates, which sends nothing.
    const d = await plugin.diff({ ...kind, id, olds, news: inputs, oldInputs: inputs });
    expect(d.changes).toBe(true);
    expect(d.replaces).toEqual([]);
    const sent = t.emu.stats.total;
    const refused = await failureOf(
      plugin.update({ ...kind, id, olds, news: inputs, oldInputs: inputs, preview: false }),
    );
    expect(refused.code).toBe("E_UNSETTLED");
    expect(refused.message).toMatch(/`pulumi refresh`/);
    expect(t.emu.stats.total).toBe(sent);

    // A refresh while the list still cannot be read keeps it as it is.
    const kept = await plugin.read({ ...kind, id, properties: olds, inputs });
    expect(kept).toMatchObject({ id });
    expect(notes.join("\n")).toMatch(/could not be read whole/);

    t.emu.faults.clear();
    const settled = await plugin.read({ ...kind, id, properties: olds, inputs });
    const on628 = (await t.call("GET", "/v1/numbers/list?page=1&size=100")).json.items.filter((n: { number: string }) =>
      n.number.startsWith("+1628"),
    );
    expect(on628).toHaveLength(1);
    expect(settled).toMatchObject({ id: on628[0].id, properties: { number: on628[0].number, areaCode: "628" } });
    expect(writes("POST /v1/numbers/buy")).toBe(1);
  });
});

describe("a call whose reply is lost and whose list item cannot be read", () => {
  it("is kept unsettled, and a refresh once the list can be read takes that call", async () => {
    const kind = at("Call");
    const voice = t.emu.seeds.get(t.tokenA)!.voices[0];
    const agent = (await t.call("POST", "/v1/agents/create", { prompt: "p", voice })).json.id;
    const inputs = { fromNumber: "+15550010001", toNumber: "+15557650009", agent };
    t.emu.faults.add({ route: "/v1/calls/create", method: "POST", phase: "after", reset: true, count: 1 });
    t.emu.faults.add({
      route: "/v1/calls/list",
      phase: "after",
      items: { where: { status: "not_started" }, set: { user_id: 42 } },
    });
    const made = await failureOf(plugin.create({ ...kind, properties: inputs, preview: false }));
    expect(made.partial?.id).toMatch(/^unsettled-/);
    t.emu.faults.clear();
    const read = await plugin.read({ ...kind, id: made.partial!.id, properties: made.partial!.properties, inputs });
    const placed = (await t.call("GET", "/v1/calls/list?page=1&size=100")).json.items.filter(
      (c: { to_number: string }) => c.to_number === "+15557650009",
    );
    expect(notes).toEqual([]);
    expect(read).toMatchObject({ id: placed[0].id });
  });
});

describe("a call the service may have placed, which a complete list does not show", () => {
  it("is kept unsettled, and a refresh whose complete listings never show it drops it so the next up places it", async () => {
    const kind = at("Call");
    const voice = t.emu.seeds.get(t.tokenA)!.voices[0];
    const agent = (await t.call("POST", "/v1/agents/create", { prompt: "p", voice })).json.id;
    const inputs = { fromNumber: "+15550010001", toNumber: "+15557650000", agent };
    const placed = writes("POST /v1/calls/create");
    t.emu.faults.add({ route: "/v1/calls/create", method: "POST", status: 503, count: 1 });
    const made = await failureOf(plugin.create({ ...kind, properties: inputs, preview: false }));
    expect(made.partial?.id).toMatch(/^unsettled-/);
    const read = await plugin.read({ ...kind, id: made.partial!.id, properties: made.partial!.properties, inputs });
    expect(read).toMatchObject({ id: "" });
    expect(notes.join("\n")).toMatch(/shows that its create made nothing/);
    expect(writes("POST /v1/calls/create")).toBe(placed);
  });
});
