// The native plugin's plain provider, in-process (test/helpers/plugin-harness.ts): dispatch by
// type token, config checks, the preview policy, the dynamic → native migration and the import
// refusal, against the emulator (served on 127.0.0.1:0) and, where a test must show that nothing
// was sent, a server that records every request. The protobuf encoding is plugin/grpc.test.ts's;
// the process contract is plugin/process.test.ts's.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { PlainProvider } from "../../provider/plugin/protocol.js";
import { testEmulator } from "../helpers/emulator.js";
import { inProcessPlugin, PLUGIN_VERSION as VERSION, withoutVoiceagentEnv } from "../helpers/plugin-harness.js";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const urn = (kind: string, name: string) => `urn:pulumi:dev::proj::voiceagent:index:${kind}::${name}`;
const type = (kind: string) => `voiceagent:index:${kind}`;
const at = (kind: string) => ({ urn: urn(kind, "r"), type: type(kind) });
const PROVIDER_URN = "urn:pulumi:dev::proj::pulumi:providers:voiceagent::default";

let live: PlainProvider; // configured against the emulator
let recorded: PlainProvider; // configured against a recording server: proves nothing is sent
let recorder: RecordingServer;
let stopEmulator: () => Promise<unknown>;

const reasons = (r: { failures: { reason: string }[] }) => r.failures.map((f) => f.reason);
const checkConfig = (p: PlainProvider, news: Record<string, unknown>) =>
  p.checkConfig({ urn: PROVIDER_URN, type: "pulumi:providers:voiceagent", olds: {}, news });
const configured = async (config: Record<string, unknown>) => {
  const p = inProcessPlugin().provider;
  await p.configure({ config, plainKeys: [] });
  return p;
};
const create = (p: PlainProvider, kind: string, properties: Record<string, unknown>, preview = false) =>
  p.create({ ...at(kind), properties, preview });
const read = (p: PlainProvider, kind: string, id: string, properties: Record<string, unknown> = {}) =>
  p.read({ ...at(kind), id, properties, inputs: {} });
const update = (
  p: PlainProvider,
  kind: string,
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
) => p.update({ ...at(kind), id, olds, news, oldInputs: news, preview: false });
const diff = (
  p: PlainProvider,
  kind: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  oldInputs: Record<string, unknown> = {},
) => p.diff({ ...at(kind), id: "x", olds, news, oldInputs });
const kinds = (d: { detailed: Record<string, { kind: string }> }) =>
  Object.fromEntries(Object.entries(d.detailed).map(([k, v]) => [k, v.kind]));

beforeEach(withoutVoiceagentEnv);
afterEach(() => vi.unstubAllEnvs());

beforeAll(async () => {
  const t = await testEmulator();
  const baseUrl = await t.emu.app.listen({ host: "127.0.0.1", port: 0 });
  stopEmulator = () => t.emu.app.close();
  recorder = await startRecordingServer(() => ({ status: 500, json: { detail: "nothing should be sent here" } }));
  live = await configured({ baseUrl, token: t.tokenA, version: VERSION });
  // With the API generation set, no check asks the service which one it speaks: nothing is sent.
  recorded = await configured({ baseUrl: recorder.url, token: "recorder-token", api: "2023" });
});
afterAll(async () => {
  await Promise.all([recorder?.close(), stopEmulator?.()]);
});

describe("CheckConfig", () => {
  it("a missing token and a malformed baseUrl fail, each naming its key and the command that sets it, with no request sent", async () => {
    const res = await checkConfig(recorded, { baseUrl: "ftp://example.test" });
    const text = reasons(res);
    expect(text.find((r) => r.includes("voiceagent:token"))).toMatch(/pulumi config set --secret voiceagent:token/);
    expect(text.find((r) => r.includes("voiceagent:baseUrl"))).toMatch(/pulumi config set voiceagent:baseUrl/);
    // A failure naming a property makes the engine print that property's value: none may.
    expect(res.failures.map((f) => f.property)).toEqual(["", ""]);
    const typo = reasons(await checkConfig(recorded, { baseUrl: recorder.url, token: "t", tokn: "x" }));
    expect(typo).toEqual([expect.stringMatching(/voiceagent:tokn .*pulumi config rm voiceagent:tokn/)]);
    expect(recorder.requests).toEqual([]);
  });

  it("VOICEAGENT_BASE_URL and VOICEAGENT_TOKEN stand in for missing config", async () => {
    vi.stubEnv("VOICEAGENT_BASE_URL", recorder.url);
    vi.stubEnv("VOICEAGENT_TOKEN", "from-env");
    expect(reasons(await checkConfig(inProcessPlugin().provider, {}))).toEqual([]);
  });
});

describe("Configure", () => {
  it("refuses a token the engine says arrived as plain text, with a code, before anything is sent", async () => {
    const p = inProcessPlugin().provider;
    await expect(
      p.configure({ config: { baseUrl: recorder.url, token: "plain-token" }, plainKeys: ["token"] }),
    ).rejects.toMatchObject({ code: "E_PLAIN_TOKEN" });
    expect(recorder.requests).toEqual([]);
  });
});

describe("Check", () => {
  it("passes a value unknown at preview through and still fails the known ones", async () => {
    const ok = await recorded.check({ ...at("Agent"), olds: {}, news: { prompt: UNKNOWN, voice: UNKNOWN } });
    expect(reasons(ok)).toEqual([]);
    expect(ok.inputs).toMatchObject({ prompt: UNKNOWN, voice: UNKNOWN });
    const bad = await recorded.check({ ...at("Agent"), olds: {}, news: { prompt: UNKNOWN, voice: "not-a-uuid" } });
    // Named in the reason, never in `property`: the engine prints the value of a property a failure names.
    expect(bad.failures.map((f) => [f.property, f.reason])).toEqual([
      ["", expect.stringMatching(/^voice .*nothing was sent to the service$/)],
    ]);
  });

  it("a type or property this plugin does not know names the plugin's and the SDK's versions", async () => {
    const kind = reasons(await live.check({ ...at("Trunk"), olds: {}, news: {} }));
    expect(kind).toEqual([expect.stringContaining(`voiceagent:index:Trunk`)]);
    expect(kind[0]).toContain(VERSION);
    const newer = await configured({ baseUrl: recorder.url, token: "t", version: "9.9.9" });
    const prop = reasons(
      await newer.check({ ...at("Voice"), olds: {}, news: { voiceName: "a", pitch: 0, rate: 1, timbre: "warm" } }),
    );
    expect(prop).toEqual([expect.stringMatching(new RegExp(`timbre.*${VERSION.replace(/\./g, "\\.")}.*9\\.9\\.9`))]);
    // A request past Check about such a type is refused with a code, and sends nothing.
    await expect(recorded.diff({ ...at("Trunk"), id: "x", olds: {}, news: {} })).rejects.toMatchObject({
      code: "E_UNKNOWN_KIND",
    });
    expect(recorder.requests).toEqual([]);
  });
});

describe("Diff", () => {
  const voice = { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base" };

  it("gives a detailed diff (the kind of each change, from the kind's own diff), the replacing properties and the stable ones", async () => {
    const d = await diff(
      recorded,
      "Voice",
      { ...voice, voiceId: "11111111-1111-4111-8111-111111111111" },
      { ...voice, pitch: 2, voiceId: "22222222-2222-4222-8222-222222222222" },
    );
    expect(d.changes).toBe(true);
    expect(kinds(d)).toEqual({ pitch: "update", voiceId: "update-replace" });
    expect(d.replaces).toEqual(["voiceId"]);
    expect(d.stables.sort()).toEqual(["rate", "type", "voiceName"]);
    const none = await diff(recorded, "Voice", voice, { voiceName: "alloy", pitch: 0, rate: 1 });
    expect(none.changes).toBe(false);
    // Set where it was unset: an add, not an update.
    expect(
      kinds(
        await diff(
          recorded,
          "Agent",
          { prompt: "p", voice: randomUUID(), actions: [] },
          { prompt: "p", voice: randomUUID(), actions: [], initialMessage: "hi" },
        ),
      ),
    ).toMatchObject({ initialMessage: "add" });
  });

  it("a recorded __provider (a stack moved from the dynamic provider) is a change that deletes it and replaces nothing", async () => {
    const d = await diff(recorded, "Voice", { ...voice, __provider: "exports.handler = ..." }, voice, {
      ...voice,
      __provider: "exports.handler = ...",
    });
    expect(d.changes).toBe(true);
    expect(kinds(d)).toEqual({ __provider: "delete" });
    expect(d.replaces).toEqual([]);
  });
});

describe("resources", () => {
  it("a preview sends nothing, and an update where only __provider differs drops it without a request", async () => {
    const preview = await create(recorded, "Voice", { voiceName: "alloy", pitch: 0, rate: 1 }, true);
    expect(preview.id).toBe("");
    // What the service decides (the owner) is unknown in a preview, not missing.
    expect(preview.properties).toMatchObject({ voiceName: "alloy", userId: UNKNOWN });
    const state = { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base", userId: "u" };
    const moved = await update(
      recorded,
      "Voice",
      "v1",
      { ...state, __provider: "exports.handler = ..." },
      { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base" },
    );
    expect(moved.properties).toEqual(state);
    expect(recorder.requests).toEqual([]);
  });

  it("creates, reads, imports (read with no properties returns the inputs) and updates against the service", async () => {
    const v = await create(live, "Voice", { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base" });
    expect(v.id).toMatch(/^[0-9a-f-]{36}$/);
    const a = await create(live, "Agent", { prompt: "hello", voice: v.id, actions: [] });
    expect(a.properties).toMatchObject({ prompt: "hello", voice: v.id });
    const imported = await read(live, "Agent", a.id);
    expect(imported.id).toBe(a.id);
    expect(imported.inputs).toMatchObject({ prompt: "hello", voice: v.id });
    expect(imported.inputs).not.toHaveProperty("userId");
    const u = await update(live, "Agent", a.id, a.properties, { prompt: "changed", voice: v.id, actions: [] });
    expect(u.properties).toMatchObject({ prompt: "changed" });
    expect((await read(live, "Agent", a.id, u.properties)).properties).toMatchObject({ prompt: "changed" });
  });

  it("an import from a service that cannot read the kind fails saying so, instead of importing an empty resource", async () => {
    const server = await startRecordingServer((req) =>
      req.path === "/v1/voices/list"
        ? { status: 404, json: { detail: "Not Found" } }
        : { status: 500, json: { detail: "no" } },
    );
    try {
      const p = await configured({ baseUrl: server.url, token: "no-routes-token" });
      const err = await read(p, "Voice", randomUUID()).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/voiceagent:index:Voice .* cannot be imported/);
      expect(err).toMatchObject({ code: "E_NOT_IMPORTABLE" });
      expect(server.requests.filter((r) => r.method !== "GET")).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe("a create's preview", () => {
  it(`leaves an optional input the program does not set undefined, so a dependent previews no unknown; what the service decides is \
unknown`, async () => {
    const agent = await create(recorded, "Agent", { prompt: "p", voice: randomUUID(), actions: [] }, true);
    for (const unset of ["initialMessage", "webhook", "agentId"])
      expect(agent.properties[unset], unset).toBeUndefined();
    expect(agent.properties.userId).toBe(UNKNOWN);
    const call = await create(
      recorded,
      "Call",
      { fromNumber: "+15550010001", toNumber: "+15557650000", agent: randomUUID() },
      true,
    );
    for (const unset of ["triggers", "allowedDestinations"]) expect(call.properties[unset], unset).toBeUndefined();
    expect(call.properties.status).toBe(UNKNOWN);
    // A number bought in an area code: the service picks the number.
    const bought = await create(recorded, "PurchasedNumber", { areaCode: "415" }, true);
    expect(bought.properties).toMatchObject({ areaCode: "415", number: UNKNOWN, active: UNKNOWN });
    expect(recorder.requests).toEqual([]);
  });
});

describe("customTimeouts", () => {
  it("a create stops retrying at the resource's customTimeouts, sooner than operationTimeout", async () => {
    // Every create refused before any work (nothing made), so only the time budget can end it.
    const server = await startRecordingServer((req) => {
      if (req.path === "/v1/agents/list") return { json: { items: [], page: 1, size: 100, total: 0, has_more: false } };
      return { status: 503, json: { detail: "unavailable" } };
    });
    try {
      const p = await configured({ baseUrl: server.url, token: "busy-token", operationTimeout: "10m" });
      const err = await p
        .create({
          ...at("Agent"),
          properties: { prompt: "p", voice: randomUUID(), actions: [] },
          preview: false,
          timeout: 1,
        })
        .then(
          () => undefined,
          (e: Error) => e.message,
        );
      // The budget it stopped at is the resource's 1 s, and nothing was made.
      expect(err).toMatch(/\(1s\)/);
      expect(err).toMatch(/none of them made an agent/);
      expect(server.requests.filter((r) => r.path === "/v1/agents/create").length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 60_000);
});
