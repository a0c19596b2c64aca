// The native plugin over its real protocol: the bundled file spawned as the engine spawns it,
// driven with a gRPC client, against the emulator (served on 127.0.0.1:0) and, where a test must
// show that nothing was sent, a server that records every request.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { ServiceError } from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb.js";
import { Status } from "@pulumi/pulumi/proto/status_pb.js";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb.js";
import {
  CheckRequest,
  CheckResponse,
  ConfigureRequest,
  ConfigureResponse,
  CreateRequest,
  CreateResponse,
  DeleteRequest,
  DiffRequest,
  DiffResponse,
  ErrorResourceInitFailed,
  GetSchemaRequest,
  GetSchemaResponse,
  PropertyDiff,
  ReadRequest,
  ReadResponse,
  UpdateRequest,
  UpdateResponse,
} from "@pulumi/pulumi/proto/provider_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/consumer.js";
import { testEmulator } from "../helpers/emulator.js";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";
import { PLUGIN_BIN, rpc, startFakeEngine, startPlugin, struct, type FakeEngine, type PluginProcess } from "./plugin-process.js";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const secret = (value: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });
const VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, "provider", "package.json"), "utf8")) as { version: string }).version;
const urn = (kind: string, name: string) => `urn:pulumi:dev::proj::voiceagent:index:${kind}::${name}`;
const type = (kind: string) => `voiceagent:index:${kind}`;

let engine: FakeEngine;
let live: PluginProcess; // configured against the emulator, logging to the fake engine
let recorded: PluginProcess; // configured against a recording server: proves nothing is sent
let recorder: RecordingServer;
let stopEmulator: () => Promise<unknown>;

async function configure(p: PluginProcess, config: Record<string, unknown>) {
  return rpc<ConfigureResponse>((cb) => p.client.configure(new ConfigureRequest().setArgs(struct(config)).setAcceptsecrets(true).setType("pulumi:providers:voiceagent"), cb));
}
function check(p: PluginProcess, kind: string, news: Record<string, unknown>, olds: Record<string, unknown> = {}) {
  return rpc<CheckResponse>((cb) => p.client.check(new CheckRequest().setUrn(urn(kind, "r")).setType(type(kind)).setNews(struct(news)).setOlds(struct(olds)), cb));
}
function diff(p: PluginProcess, kind: string, olds: Record<string, unknown>, news: Record<string, unknown>, oldInputs: Record<string, unknown> = {}) {
  return rpc<DiffResponse>((cb) => p.client.diff(new DiffRequest().setUrn(urn(kind, "r")).setType(type(kind)).setId("x").setOlds(struct(olds)).setNews(struct(news)).setOldInputs(struct(oldInputs)), cb));
}
function create(p: PluginProcess, kind: string, props: Record<string, unknown>, preview = false) {
  return rpc<CreateResponse>((cb) => p.client.create(new CreateRequest().setUrn(urn(kind, "r")).setType(type(kind)).setProperties(struct(props)).setPreview(preview), cb));
}
function read(p: PluginProcess, kind: string, id: string, props: Record<string, unknown> = {}) {
  return rpc<ReadResponse>((cb) => p.client.read(new ReadRequest().setUrn(urn(kind, "r")).setType(type(kind)).setId(id).setProperties(struct(props)).setInputs(struct({})), cb));
}
function update(p: PluginProcess, kind: string, id: string, olds: Record<string, unknown>, news: Record<string, unknown>) {
  return rpc<UpdateResponse>((cb) => p.client.update(new UpdateRequest().setUrn(urn(kind, "r")).setType(type(kind)).setId(id).setOlds(struct(olds)).setNews(struct(news)).setOldInputs(struct(news)), cb));
}
const checkConfig = (p: PluginProcess, news: Record<string, unknown>) =>
  rpc<CheckResponse>((cb) => p.client.checkConfig(new CheckRequest().setUrn("urn:pulumi:dev::proj::pulumi:providers:voiceagent::default").setType("pulumi:providers:voiceagent").setNews(struct(news)).setOlds(struct({})), cb));
const reasons = (r: { getFailuresList(): { getReason(): string }[] }) => r.getFailuresList().map((f) => f.getReason());

beforeAll(async () => {
  const t = await testEmulator();
  const baseUrl = await t.emu.app.listen({ host: "127.0.0.1", port: 0 });
  stopEmulator = () => t.emu.app.close();
  recorder = await startRecordingServer(() => ({ status: 500, json: { detail: "nothing should be sent here" } }));
  engine = await startFakeEngine();
  // As the engine runs it with logging flowed: its flags first, its address last.
  live = await startPlugin(["--logtostderr", "-v=9", engine.address]);
  recorded = await startPlugin([]);
  // The token as the engine sends it in Configure's args: wrapped as a secret.
  await configure(live, { baseUrl, token: secret(t.tokenA), version: VERSION });
  await configure(recorded, { baseUrl: recorder.url, token: secret("recorder-token") });
});
afterAll(async () => {
  await Promise.all([live?.stop(), recorded?.stop()]);
  await Promise.all([engine?.stop(), recorder?.close(), stopEmulator?.()]);
});

describe("the plugin process", () => {
  it("writes its port line first and nothing before it, and serves its version and the package schema", async () => {
    expect(live.stdout()).toMatch(/^\d+\n$/);
    const info = await rpc<PluginInfo>((cb) => live.client.getPluginInfo(new Empty(), cb));
    expect(info.getVersion()).toBe(VERSION);
    const served: unknown = JSON.parse((await rpc<GetSchemaResponse>((cb) => live.client.getSchema(new GetSchemaRequest(), cb))).getSchema());
    // The committed schema, embedded in the bundle (the schema's own tests check its content).
    expect(served).toEqual(JSON.parse(readFileSync(path.join(REPO_ROOT, "provider", "schema.json"), "utf8")));
  });

  it("runs as the one file it is, also where the nearest package.json says \"type\": \"module\" (Node then reads it as an ES module)", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "va-plugin-esm-"));
    try {
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
      copyFileSync(PLUGIN_BIN, path.join(dir, "pulumi-resource-voiceagent"));
      const p = await startPlugin([], {}, path.join(dir, "pulumi-resource-voiceagent"));
      try {
        expect((await rpc<PluginInfo>((cb) => p.client.getPluginInfo(new Empty(), cb))).getVersion()).toBe(VERSION);
      } finally {
        await p.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a failure to start is one line on stderr and exit code 1, with no port line", async () => {
    // Started by hand with something that is not the engine's address.
    const err = await startPlugin(["not-an-address"]).then(
      async (p) => (await p.stop(), undefined),
      (e: unknown) => String(e),
    );
    expect(err).toMatch(/exited \(1\) before its port line: pulumi-resource-voiceagent: [^\n]+\n$/);
    expect(err).not.toMatch(/\n\s+at /);
  });
});

describe("CheckConfig", () => {
  it("a missing token and a malformed baseUrl fail, each naming its key and the command that sets it, with no request sent", async () => {
    const res = await checkConfig(recorded, { baseUrl: "ftp://example.test" });
    const text = reasons(res);
    expect(text.find((r) => r.includes("voiceagent:token"))).toMatch(/pulumi config set --secret voiceagent:token/);
    expect(text.find((r) => r.includes("voiceagent:baseUrl"))).toMatch(/pulumi config set voiceagent:baseUrl/);
    // A failure naming a property makes the engine print that property's value: none may.
    expect(res.getFailuresList().map((f) => f.getProperty())).toEqual(["", ""]);
    const typo = reasons(await checkConfig(recorded, { baseUrl: recorder.url, token: "t", tokn: "x" }));
    expect(typo).toEqual([expect.stringMatching(/voiceagent:tokn .*pulumi config rm voiceagent:tokn/)]);
    expect(recorder.requests).toEqual([]);
  });

  it("VOICEAGENT_BASE_URL and VOICEAGENT_TOKEN stand in for missing config", async () => {
    const p = await startPlugin([], { VOICEAGENT_BASE_URL: recorder.url, VOICEAGENT_TOKEN: "from-env" });
    try {
      expect(reasons(await checkConfig(p, {}))).toEqual([]);
    } finally {
      await p.stop();
    }
  });
});

describe("Configure", () => {
  it("takes no secrets and no resources, and supports previews", async () => {
    const res = await configure(recorded, { baseUrl: recorder.url, token: secret("recorder-token") });
    expect([res.getAcceptsecrets(), res.getAcceptresources(), res.getSupportspreview()]).toEqual([false, false, true]);
  });

  it("refuses a token the engine hands over as plain text (set without --secret): it would be stored unencrypted", async () => {
    const plain = `plain-${randomUUID()}`;
    const why = await configure(recorded, { baseUrl: recorder.url, token: plain }).then(
      () => "configured",
      (e: ServiceError) => e.details,
    );
    expect(why).toMatch(/voiceagent:token/);
    expect(why).toMatch(/pulumi config set --secret voiceagent:token/);
    expect(why).not.toContain(plain);
    expect(recorder.requests).toEqual([]);
    // The plugin keeps the configuration it had: the next (secret) Configure works as before.
    await configure(recorded, { baseUrl: recorder.url, token: secret("recorder-token") });
  });
});

describe("Check", () => {
  it("passes a value unknown at preview through and still fails the known ones", async () => {
    const ok = await check(recorded, "Agent", { prompt: UNKNOWN, voice: UNKNOWN });
    expect(reasons(ok)).toEqual([]);
    expect(ok.getInputs()?.toJavaScript()).toMatchObject({ prompt: UNKNOWN, voice: UNKNOWN });
    const bad = await check(recorded, "Agent", { prompt: UNKNOWN, voice: "not-a-uuid" });
    // Named in the reason, never in `property`: the engine prints the value of a property a failure names.
    expect(bad.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([["", expect.stringMatching(/^voice .*nothing was sent/)]]);
  });

  it("a type or property this plugin does not know names the plugin's and the SDK's versions", async () => {
    const kind = reasons(await check(live, "Trunk", {}));
    expect(kind).toEqual([expect.stringContaining(`voiceagent:index:Trunk`)]);
    expect(kind[0]).toContain(VERSION);
    await configure(recorded, { baseUrl: recorder.url, token: secret("t"), version: "9.9.9" });
    const prop = reasons(await check(recorded, "Voice", { voiceName: "a", pitch: 0, rate: 1, timbre: "warm" }));
    expect(prop).toEqual([expect.stringMatching(new RegExp(`timbre.*${VERSION.replace(/\./g, "\\.")}.*9\\.9\\.9`))]);
    expect(recorder.requests).toEqual([]);
  });
});

describe("Diff", () => {
  const voice = { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base" };
  const kinds = (d: DiffResponse) => {
    const out: Record<string, number> = {};
    d.getDetaileddiffMap().forEach((v, k) => (out[k] = v.getKind()));
    return out;
  };

  it("gives a detailed diff, the replacing properties and the stable ones", async () => {
    const d = await diff(recorded, "Voice", { ...voice, voiceId: "11111111-1111-4111-8111-111111111111" }, { ...voice, pitch: 2, voiceId: "22222222-2222-4222-8222-222222222222" });
    expect(d.getChanges()).toBe(DiffResponse.DiffChanges.DIFF_SOME);
    expect(kinds(d)).toEqual({ pitch: PropertyDiff.Kind.UPDATE, voiceId: PropertyDiff.Kind.UPDATE_REPLACE });
    expect(d.getReplacesList()).toEqual(["voiceId"]);
    expect(d.getStablesList().sort()).toEqual(["rate", "type", "voiceName"]);
    const none = await diff(recorded, "Voice", voice, { voiceName: "alloy", pitch: 0, rate: 1 });
    expect(none.getChanges()).toBe(DiffResponse.DiffChanges.DIFF_NONE);
  });

  it("a recorded __provider (a stack moved from the dynamic provider) is a change that deletes it and replaces nothing", async () => {
    const d = await diff(recorded, "Voice", { ...voice, __provider: "exports.handler = ..." }, voice, { ...voice, __provider: "exports.handler = ..." });
    expect(d.getChanges()).toBe(DiffResponse.DiffChanges.DIFF_SOME);
    expect(kinds(d)).toEqual({ __provider: PropertyDiff.Kind.DELETE });
    expect(d.getReplacesList()).toEqual([]);
  });
});

describe("resources", () => {
  it("a preview sends nothing, and an update where only __provider differs drops it without a request", async () => {
    const preview = await create(recorded, "Voice", { voiceName: "alloy", pitch: 0, rate: 1 }, true);
    expect(preview.getId()).toBe("");
    // What the service decides (the owner) is unknown in a preview, not missing.
    expect(preview.getProperties()?.toJavaScript()).toMatchObject({ voiceName: "alloy", userId: UNKNOWN });
    const state = { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base", userId: "u" };
    const moved = await update(recorded, "Voice", "v1", { ...state, __provider: "exports.handler = ..." }, { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base" });
    expect(moved.getProperties()?.toJavaScript()).toEqual(state);
    expect(recorder.requests).toEqual([]);
  });

  it("creates, reads, imports (read with no properties returns the inputs) and updates against the service", async () => {
    const v = await create(live, "Voice", { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base" });
    const voiceId = v.getId();
    expect(voiceId).toMatch(/^[0-9a-f-]{36}$/);
    const a = await create(live, "Agent", { prompt: "hello", voice: voiceId, actions: [] });
    const agentId = a.getId();
    expect(a.getProperties()?.toJavaScript()).toMatchObject({ prompt: "hello", voice: voiceId });
    const imported = await read(live, "Agent", agentId);
    expect(imported.getId()).toBe(agentId);
    expect(imported.getInputs()?.toJavaScript()).toMatchObject({ prompt: "hello", voice: voiceId });
    expect(imported.getInputs()?.toJavaScript()).not.toHaveProperty("userId");
    const u = await update(live, "Agent", agentId, a.getProperties()?.toJavaScript() ?? {}, { prompt: "changed", voice: voiceId, actions: [] });
    expect(u.getProperties()?.toJavaScript()).toMatchObject({ prompt: "changed" });
    expect((await read(live, "Agent", agentId, u.getProperties()?.toJavaScript())).getProperties()?.toJavaScript()).toMatchObject({ prompt: "changed" });
  });

  it("a create that made an object but could not finish keeps it tracked: the error carries ErrorResourceInitFailed with its id", async () => {
    const id = randomUUID();
    // A call placed, whose answer cannot be read: the kit's PartialCreateError.
    const server = await startRecordingServer((req) => {
      if (req.path === "/v1/calls/list") return { json: { items: [], page: 1, size: 100, total: 0, has_more: false } };
      if (req.path === "/v1/calls/create") return { json: { id, status: 42 } };
      return { status: 404, json: { detail: "Not Found" } };
    });
    const p = await startPlugin([]);
    try {
      await configure(p, { baseUrl: server.url, token: secret("partial-token") });
      const inputs = { fromNumber: "+15550010001", toNumber: "+15557650000", agent: randomUUID() };
      const err = await create(p, "Call", inputs).then(
        () => undefined,
        (e: ServiceError) => e,
      );
      const [bin] = err?.metadata.get("grpc-status-details-bin") ?? [];
      const details = Status.deserializeBinary(typeof bin === "string" ? Buffer.from(bin) : (bin ?? Buffer.alloc(0))).getDetailsList();
      const failed = details[0]?.unpack(ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
      expect(failed?.getId()).toBe(id);
      expect(failed?.getProperties()?.toJavaScript()).toMatchObject({ status: "unknown" });
      expect(err?.details).toContain(id);
      expect(server.requests.filter((r) => r.path === "/v1/calls/create")).toHaveLength(1);
    } finally {
      await p.stop();
      await server.close();
    }
  });

  it("an import from a service that cannot read the kind fails saying so, instead of importing an empty resource", async () => {
    const server = await startRecordingServer((req) => (req.path === "/v1/voices/list" ? { status: 404, json: { detail: "Not Found" } } : { status: 500, json: { detail: "no" } }));
    const p = await startPlugin([]);
    try {
      await configure(p, { baseUrl: server.url, token: secret("no-routes-token") });
      const err = await read(p, "Voice", randomUUID()).then(
        () => undefined,
        (e: ServiceError) => e.details,
      );
      expect(err).toMatch(/voiceagent:index:Voice .* cannot be imported/);
      expect(server.requests.filter((r) => r.method !== "GET")).toEqual([]);
    } finally {
      await p.stop();
      await server.close();
    }
  });

  it("a note (destroy only forgets an agent) reaches the engine's Log with the resource's URN before the delete answers", async () => {
    const v = await create(live, "Voice", { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base" });
    const a = await create(live, "Agent", { prompt: "bye", voice: v.getId(), actions: [] });
    const at = engine.logs.length;
    await rpc<Empty>((cb) => live.client.delete(new DeleteRequest().setUrn(urn("Agent", "bye")).setType(type("Agent")).setId(a.getId()).setProperties(a.getProperties()), cb));
    const logged = engine.logs.slice(at);
    expect(logged).toEqual([{ severity: 1, message: expect.stringContaining(a.getId()), urn: urn("Agent", "bye") }]);
    expect(live.stderr()).not.toContain(a.getId());
  });
});
