// Provider methods against a scripted server: a call whose create answer was unreadable is kept
// and recovered, a guard-only change sends nothing, extension routes are learned once per process.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { runtimeFor } from "../../provider/resources/providers.js";
import { PartialCreateError } from "../../provider/resources/kit/errors.js";
import { startRecordingServer, type Answer, type RecordedRequest, type RecordingServer } from "../helpers/recording-server.js";

let server: RecordingServer | undefined;
afterEach(async () => server?.close());
const USER = randomUUID();
const voice = { id: randomUUID(), user_id: USER, type: "voice_base", voice_name: "alloy", pitch: 0, rate: 1 };
const agent = { id: randomUUID(), user_id: USER, prompt: "p", actions: [], voice, initial_message: null, webhook: null };
const callOf = (id: string) => ({ id, user_id: USER, status: "in_progress", error_message: null, recording_available: false, transcript: null, to_number: "+15557650000", from_number: "+15550010001", agent });

async function serve(handler: (req: RecordedRequest) => Answer) {
  server = await startRecordingServer(handler);
  // A token unique to this server: each gets its own client (and so its own probes) in this process.
  return { baseUrl: server.url, token: `t-${randomUUID()}` };
}

describe("Call", () => {
  const inputs = { fromNumber: "+15550010001", toNumber: "+15557650000", agent: agent.id, allowedDestinations: ["+1555765*"] };

  it("a placed call whose answer is unreadable stays tracked; the next up reads it back; destroy ends it", async () => {
    const id = randomUUID();
    const settings = await serve((req) => {
      if (req.path === "/v1/calls/list") return { json: { items: [], page: 1, size: 100, total: 0, has_more: false } };
      if (req.path === "/v1/calls/create") return { json: { id, status: 42 } };
      if (req.path === "/v1/calls") return { json: callOf(id) };
      if (req.path === "/v1/calls/end") return { json: { ...callOf(id), status: "ended" } };
      return { status: 404, json: { detail: "Not Found" } };
    });
    const call = runtimeFor("Call");
    const err = await call.create(settings, inputs).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartialCreateError);
    expect(err).toMatchObject({ id, properties: { status: "unknown" } });
    expect((err as Error).message).toMatch(/was placed.*tracked in the state: run `pulumi up` to read it back, or `pulumi destroy` to end it/);
    // The engine retries a partially created resource with update: it must recover, not throw.
    const updated = await call.update(settings, id, { ...inputs, status: "unknown" }, inputs);
    expect(updated.outs).toMatchObject({ status: "in_progress", toNumber: inputs.toNumber });
    await call.delete(settings, id, updated.outs ?? {});
    expect(server!.requests.filter((r) => r.method === "POST" && r.path === "/v1/calls/create")).toHaveLength(1);
    expect(server!.requests.filter((r) => r.path === "/v1/calls/end")).toHaveLength(1);
  });

  it("widening allowedDestinations changes it in place and sends nothing", async () => {
    const settings = await serve(() => ({ status: 500, json: { detail: "must not be called" } }));
    const state = { ...inputs, status: "not_started", recordingAvailable: false, userId: USER };
    const d = await runtimeFor("Call").diff(settings, "c", state, { ...inputs, allowedDestinations: ["+1555*"] });
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const updated = await runtimeFor("Call").update(settings, "c", state, { ...inputs, allowedDestinations: ["+1555*"] });
    expect(updated.outs).toEqual({ ...state, allowedDestinations: ["+1555*"] });
    expect(server!.requests).toHaveLength(0);
  });
});

describe("extension routes are learned once per provider process, not from a 404's wording", () => {
  it("a server without them: refresh keeps what was recorded, asking each collection once", async () => {
    const settings = await serve((req) => (req.path === "/v1/voices/list" ? { status: 404, json: { detail: "Not Found" } } : { status: 500, json: { detail: "no" } }));
    const recorded = { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base", userId: USER };
    for (let i = 0; i < 3; i++) {
      const r = await runtimeFor("Voice").read(settings, voice.id, recorded);
      expect(r).toEqual({ id: voice.id, props: recorded });
    }
    expect(server!.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/voices/list"]);
  });

  it("a binding on a server without GET /v1/numbers keeps its state: a 404 there is not a missing number", async () => {
    const settings = await serve((req) => (req.path === "/v1/numbers/list" ? { status: 405, json: { detail: "Method Not Allowed" } } : { status: 404, json: { detail: "Not Found" } }));
    const recorded = { number: "+15550010001", inboundAgent: agent.id, active: true, numberId: randomUUID(), userId: USER };
    expect(await runtimeFor("PhoneNumber").read(settings, recorded.numberId, recorded)).toEqual({ id: recorded.numberId, props: recorded });
    expect(server!.requests.map((r) => r.path)).toEqual(["/v1/numbers/list"]);
  });

  it("a server with them: a 404 from GET /v1/voices means the voice is gone", async () => {
    const settings = await serve((req) =>
      req.path === "/v1/voices/list"
        ? { json: { items: [], page: 1, size: 1, total: 0, has_more: false } }
        : { status: 404, json: { detail: "Not Found" } },
    );
    expect(await runtimeFor("Voice").read(settings, voice.id, { voiceName: "alloy", pitch: 0, rate: 1 })).toEqual({ id: "", props: {} });
  });

  it("voiceagent:extensions none: nothing is probed, and a voice without voiceId is refused before any request", async () => {
    const settings = await serve(() => ({ status: 500, json: { detail: "no" } }));
    const none = { ...settings, config: { get: (k: string) => (k === "voiceagent:extensions" ? "none" : undefined) } };
    await expect(runtimeFor("Voice").create(none, { voiceName: "a", pitch: 0, rate: 1, type: "voice_base" })).rejects.toThrow(
      /cannot create voices.*nothing was sent: set voiceId/,
    );
    expect(server!.requests).toHaveLength(0);
  });
});
