// The plugin's protobuf edge (provider/plugin/grpc.ts), in-process: the engine's messages in, the
// plain provider's results out as the engine reads them: Configure's answer and its plain-text
// token refusal, the detailed diff's kinds, secrets unwrapped and unknowns kept, and a partial
// create as ErrorResourceInitFailed in the status details.
import { randomUUID } from "node:crypto";
import { Struct } from "google-protobuf/google/protobuf/struct_pb.js";
import { Status } from "@pulumi/pulumi/proto/status_pb.js";
import {
  CheckRequest,
  ConfigureRequest,
  CreateRequest,
  DiffRequest,
  DiffResponse,
  ErrorResourceInitFailed,
  PropertyDiff,
  ReadRequest,
  UpdateRequest,
} from "@pulumi/pulumi/proto/provider_pb.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  callUnary,
  inProcessPlugin,
  withoutVoiceagentEnv,
  type CallFailure,
  type InProcessPlugin,
} from "../helpers/plugin-harness.js";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const secret = (value: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });
const struct = (props: Record<string, unknown>): Struct => Struct.fromJavaScript(JSON.parse(JSON.stringify(props)));
const urn = (kind: string) => `urn:pulumi:dev::proj::voiceagent:index:${kind}::r`;
const type = (kind: string) => `voiceagent:index:${kind}`;

let recorder: RecordingServer;
let plugin: InProcessPlugin; // configured against the recording server: nothing may be sent

const configure = (p: InProcessPlugin, config: Record<string, unknown>) =>
  callUnary(
    p.grpc.configure,
    new ConfigureRequest().setArgs(struct(config)).setAcceptsecrets(true).setType("pulumi:providers:voiceagent"),
  );
const diff = (
  kind: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  oldInputs: Record<string, unknown> = {},
) =>
  callUnary(
    plugin.grpc.diff,
    new DiffRequest()
      .setUrn(urn(kind))
      .setType(type(kind))
      .setId("x")
      .setOlds(struct(olds))
      .setNews(struct(news))
      .setOldInputs(struct(oldInputs)),
  );
const kinds = (d: DiffResponse) => {
  const out: Record<string, number> = {};
  d.getDetaileddiffMap().forEach((v, k) => {
    out[k] = v.getKind();
  });
  return out;
};

beforeEach(withoutVoiceagentEnv);
afterEach(() => vi.unstubAllEnvs());
beforeAll(async () => {
  recorder = await startRecordingServer(() => ({ status: 500, json: { detail: "nothing should be sent here" } }));
  plugin = inProcessPlugin();
  // With the API generation set, no check asks the service which one it speaks: nothing is sent.
  await configure(plugin, { baseUrl: recorder.url, token: secret("recorder-token"), api: "2023" });
});
afterAll(async () => recorder?.close());

describe("Configure", () => {
  it("takes secrets (Construct needs them) but no resources, and supports previews", async () => {
    const res = await configure(plugin, { baseUrl: recorder.url, token: secret("recorder-token"), api: "2023" });
    expect([res.getAcceptsecrets(), res.getAcceptresources(), res.getSupportspreview()]).toEqual([true, false, true]);
  });

  it("refuses a token the engine hands over as plain text (set without --secret): it would be stored unencrypted", async () => {
    const plain = `plain-${randomUUID()}`;
    const why = await configure(plugin, { baseUrl: recorder.url, token: plain }).then(
      () => "configured",
      (e: CallFailure) => e.details,
    );
    expect(why).toMatch(/voiceagent:token/);
    expect(why).toMatch(/pulumi config set --secret voiceagent:token/);
    expect(why).not.toContain(plain);
    expect(recorder.requests).toEqual([]);
    // The plugin keeps the configuration it had: the next (secret) Configure works as before.
    await configure(plugin, { baseUrl: recorder.url, token: secret("recorder-token"), api: "2023" });
  });
});

describe("Check", () => {
  it("hands the provider secrets unwrapped and unknowns as they came; an input that came secret goes back secret", async () => {
    const res = await callUnary(
      plugin.grpc.check,
      new CheckRequest()
        .setUrn(urn("Agent"))
        .setType(type("Agent"))
        .setNews(struct({ prompt: secret("a prompt"), voice: UNKNOWN }))
        .setOlds(struct({})),
    );
    expect(res.getFailuresList()).toEqual([]);
    // The plugin takes secrets, so it keeps them itself where the engine did (annotateSecrets).
    expect(res.getInputs()?.toJavaScript()).toMatchObject({ prompt: secret("a prompt"), voice: UNKNOWN });
  });
});

describe("Diff", () => {
  const voice = { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base" };

  it("gives a detailed diff, the replacing properties and the stable ones", async () => {
    const d = await diff(
      "Voice",
      { ...voice, voiceId: "11111111-1111-4111-8111-111111111111" },
      { ...voice, pitch: 2, voiceId: "22222222-2222-4222-8222-222222222222" },
    );
    expect(d.getChanges()).toBe(DiffResponse.DiffChanges.DIFF_SOME);
    expect(kinds(d)).toEqual({ pitch: PropertyDiff.Kind.UPDATE, voiceId: PropertyDiff.Kind.UPDATE_REPLACE });
    expect(d.getDiffsList()).toEqual(["pitch", "voiceId"]);
    expect(d.getReplacesList()).toEqual(["voiceId"]);
    expect(d.getStablesList().sort()).toEqual(["rate", "type", "voiceName"]);
    expect(d.getHasdetaileddiff()).toBe(true);
    const none = await diff("Voice", voice, { voiceName: "alloy", pitch: 0, rate: 1 });
    expect(none.getChanges()).toBe(DiffResponse.DiffChanges.DIFF_NONE);
  });

  it("a recorded __provider (a stack moved from the dynamic provider) is a change that deletes it and replaces nothing", async () => {
    const d = await diff("Voice", { ...voice, __provider: "exports.handler = ..." }, voice, {
      ...voice,
      __provider: "exports.handler = ...",
    });
    expect(d.getChanges()).toBe(DiffResponse.DiffChanges.DIFF_SOME);
    expect(kinds(d)).toEqual({ __provider: PropertyDiff.Kind.DELETE });
    expect(d.getReplacesList()).toEqual([]);
  });
});

describe("Create", () => {
  it("a create that made an object but could not finish keeps it tracked: the error carries ErrorResourceInitFailed with its id", async () => {
    const id = randomUUID();
    // A call placed, whose answer cannot be read: the kit's PartialCreateError.
    const server = await startRecordingServer((req) => {
      if (req.path === "/v1/calls/list") return { json: { items: [], page: 1, size: 100, total: 0, has_more: false } };
      if (req.path === "/v1/calls/create") return { json: { id, status: 42 } };
      return { status: 404, json: { detail: "Not Found" } };
    });
    try {
      const p = inProcessPlugin();
      await configure(p, { baseUrl: server.url, token: secret("partial-token") });
      const inputs = { fromNumber: "+15550010001", toNumber: "+15557650000", agent: randomUUID() };
      const err = await callUnary(
        p.grpc.create,
        new CreateRequest().setUrn(urn("Call")).setType(type("Call")).setProperties(struct(inputs)),
      ).then(
        () => undefined,
        (e: CallFailure) => e,
      );
      const [bin] = err?.metadata?.get("grpc-status-details-bin") ?? [];
      const details = Status.deserializeBinary(
        typeof bin === "string" ? Buffer.from(bin) : (bin ?? Buffer.alloc(0)),
      ).getDetailsList();
      const failed = details[0]?.unpack(ErrorResourceInitFailed.deserializeBinary, "pulumirpc.ErrorResourceInitFailed");
      expect(failed?.getId()).toBe(id);
      expect(failed?.getProperties()?.toJavaScript()).toMatchObject({ status: "unknown" });
      expect(failed?.getInputs()?.toJavaScript()).toMatchObject(inputs);
      expect(err?.details).toContain(id);
      expect(server.requests.filter((r) => r.path === "/v1/calls/create")).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe("secret outputs", () => {
  it(`a call's transcript and error message leave the plugin secret on create, read, import and update, whatever the engine knows of the \
inputs`, async () => {
    const id = randomUUID();
    const user = randomUUID();
    const voice = { id: randomUUID(), user_id: user, type: "voice_base", voice_name: "alloy", pitch: 0, rate: 1 };
    const agent = {
      id: randomUUID(),
      user_id: user,
      prompt: "p",
      actions: [],
      voice,
      initial_message: null,
      webhook: null,
    };
    const call = {
      id,
      user_id: user,
      status: "ended",
      error_message: "callee hung up",
      recording_available: true,
      transcript: "personal words",
      to_number: "+15557650000",
      from_number: "+15550010001",
      agent,
    };
    const server = await startRecordingServer((req) => {
      if (req.path === "/v1/calls/list") return { json: { items: [], page: 1, size: 100, total: 0, has_more: false } };
      return { json: call };
    });
    try {
      const p = inProcessPlugin();
      await configure(p, { baseUrl: server.url, token: secret("calls-token") });
      const inputs = { fromNumber: call.from_number, toNumber: call.to_number, agent: agent.id };
      const made = await callUnary(
        p.grpc.create,
        new CreateRequest().setUrn(urn("Call")).setType(type("Call")).setProperties(struct(inputs)),
      );
      // The import: a read with nothing recorded, where the engine re-marks nothing.
      const imported = await callUnary(
        p.grpc.read,
        new ReadRequest().setUrn(urn("Call")).setType(type("Call")).setId(id),
      );
      const state = { ...inputs, status: "unknown" };
      const updated = await callUnary(
        p.grpc.update,
        new UpdateRequest()
          .setUrn(urn("Call"))
          .setType(type("Call"))
          .setId(id)
          .setOlds(struct(state))
          .setNews(struct(inputs))
          .setOldInputs(struct(inputs)),
      );
      for (const [path, props] of [
        ["create", made.getProperties()],
        ["import", imported.getProperties()],
        ["update", updated.getProperties()],
      ] as const) {
        const outputs = props?.toJavaScript() ?? {};
        expect(outputs.transcript, path).toEqual(secret("personal words"));
        expect(outputs.errorMessage, path).toEqual(secret("callee hung up"));
        expect(outputs.status, path).toBe("ended");
      }
    } finally {
      await server.close();
    }
  });

  it(`an import records a vector database's key, and an account connection's OpenAI key and Twilio auth token, secret among the inputs too: \
the engine stores an import's inputs as Read gives them`, async () => {
    const user = randomUUID();
    const vectors = {
      id: randomUUID(),
      user_id: user,
      type: "vector_database_pinecone",
      index: "faq",
      api_key: "pc-key",
      api_environment: "us-east-1-aws",
    };
    const openai = {
      id: randomUUID(),
      user_id: user,
      type: "account_connection_openai",
      credentials: { openai_api_key: "sk-key" },
    };
    const twilio = {
      id: randomUUID(),
      user_id: user,
      type: "account_connection_twilio",
      credentials: { twilio_account_sid: "AC-sid", twilio_auth_token: "twilio-token" },
      steering_pool: [],
    };
    const all = [vectors, openai, twilio];
    const server = await startRecordingServer((req) => {
      const items = all.filter((o) =>
        req.path.startsWith(`/v1/${"index" in o ? "vector_databases" : "account_connections"}`),
      );
      if (req.path.endsWith("/list"))
        return { json: { items, page: 1, size: 100, total: items.length, has_more: false } };
      return { json: all.find((o) => o.id === req.query.id) };
    });
    try {
      const p = inProcessPlugin();
      await configure(p, { baseUrl: server.url, token: secret("import-token"), api: "2024" });
      for (const [kind, id, field, value] of [
        ["VectorDatabase", vectors.id, "apiKey", "pc-key"],
        ["AccountConnection", openai.id, "openaiApiKey", "sk-key"],
        ["AccountConnection", twilio.id, "twilioAuthToken", "twilio-token"],
      ] as const) {
        // The import: a read with nothing recorded, where the engine re-marks nothing.
        const imported = await callUnary(
          p.grpc.read,
          new ReadRequest().setUrn(urn(kind)).setType(type(kind)).setId(id),
        );
        expect(imported.getProperties()?.toJavaScript()[field], `${kind} ${field} output`).toEqual(secret(value));
        expect(imported.getInputs()?.toJavaScript()[field], `${kind} ${field} input`).toEqual(secret(value));
      }
    } finally {
      await server.close();
    }
  });
});
