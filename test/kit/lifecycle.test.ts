// Provider methods against a scripted server: a call whose create answer was unreadable is kept
// and recovered, a guard-only change sends nothing, extension routes are learned once per process.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { PartialCreateError } from "../../provider/resources/kit/errors.js";
import {
  startRecordingServer,
  type Answer,
  type RecordedRequest,
  type RecordingServer,
} from "../helpers/recording-server.js";
import { agent, callOf, USER, voice } from "../helpers/wire-fixtures.js";

let server: RecordingServer | undefined;
afterEach(async () => server?.close());

async function serve(handler: (req: RecordedRequest) => Answer) {
  server = await startRecordingServer(handler);
  // A token unique to this server: each gets its own client (and so its own probes) in this process.
  return { baseUrl: server.url, token: `t-${randomUUID()}` };
}

describe("Call", () => {
  const inputs = {
    fromNumber: "+15550010001",
    toNumber: "+15557650000",
    agent: agent.id,
    allowedDestinations: ["+1555765*"],
  };

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
    expect((err as Error).message).toMatch(
      /was placed.*tracked in the state: run `pulumi up` to read it back, or `pulumi destroy` to end it/,
    );
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
    const updated = await runtimeFor("Call").update(settings, "c", state, {
      ...inputs,
      allowedDestinations: ["+1555*"],
    });
    expect(updated.outs).toEqual({ ...state, allowedDestinations: ["+1555*"] });
    expect(server!.requests).toHaveLength(0);
  });
});

describe("extension routes are learned once per provider process, not from a 404's wording", () => {
  it("a server without them: refresh keeps what was recorded, asking each collection once", async () => {
    const settings = await serve((req) =>
      req.path === "/v1/voices/list"
        ? { status: 404, json: { detail: "Not Found" } }
        : { status: 500, json: { detail: "no" } },
    );
    const recorded = { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base", userId: USER };
    for (let i = 0; i < 3; i++) {
      const r = await runtimeFor("Voice").read(settings, voice.id, recorded);
      expect(r).toEqual({ id: voice.id, props: recorded });
    }
    expect(server!.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/voices/list"]);
  });

  it("a binding on a server without GET /v1/numbers keeps its state: a 404 there is not a missing number", async () => {
    const settings = await serve((req) =>
      req.path === "/v1/numbers/list"
        ? { status: 405, json: { detail: "Method Not Allowed" } }
        : { status: 404, json: { detail: "Not Found" } },
    );
    const recorded = {
      number: "+15550010001",
      inboundAgent: agent.id,
      active: true,
      numberId: randomUUID(),
      userId: USER,
    };
    expect(await runtimeFor("PhoneNumber").read(settings, recorded.numberId, recorded)).toEqual({
      id: recorded.numberId,
      props: recorded,
    });
    expect(server!.requests.map((r) => r.path)).toEqual(["/v1/numbers/list"]);
  });

  it("a server with them: a 404 from GET /v1/voices means the voice is gone", async () => {
    const settings = await serve((req) =>
      req.path === "/v1/voices/list"
        ? { json: { items: [], page: 1, size: 1, total: 0, has_more: false } }
        : { status: 404, json: { detail: "Not Found" } },
    );
    expect(await runtimeFor("Voice").read(settings, voice.id, { voiceName: "alloy", pitch: 0, rate: 1 })).toEqual({
      id: "",
      props: {},
    });
  });

  it("voiceagent:extensions none: nothing is probed, and a voice without voiceId is refused before any request", async () => {
    const settings = await serve(() => ({ status: 500, json: { detail: "no" } }));
    const none = { ...settings, config: { get: (k: string) => (k === "voiceagent:extensions" ? "none" : undefined) } };
    await expect(
      runtimeFor("Voice").create(none, { voiceName: "a", pitch: 0, rate: 1, type: "voice_base" }),
    ).rejects.toThrow(/cannot create voices.*nothing was sent: set voiceId/);
    expect(server!.requests).toHaveLength(0);
  });
});

describe("Action", () => {
  it("a config written with the service's own key phone_number is checked, sent and settles: no difference after up", async () => {
    const id = randomUUID();
    let stored: Record<string, unknown> | undefined;
    const settings = await serve((req) => {
      if (req.path === "/v1/actions/create") {
        stored = { id, user_id: USER, ...(JSON.parse(req.body) as Record<string, unknown>) };
        return { json: stored };
      }
      if (req.path === "/v1/actions/list")
        return { json: { items: stored ? [stored] : [], page: 1, size: 100, total: stored ? 1 : 0, has_more: false } };
      if (req.path === "/v1/actions" && stored) return { json: stored };
      return { status: 404, json: { detail: "Not Found" } };
    });
    const action = runtimeFor("Action");
    const bad = await action.check(
      settings,
      {},
      { type: "action_transfer_call", config: { phone_number: "555-0100" } },
    );
    expect(bad.failures).toContainEqual({
      property: "",
      reason: expect.stringMatching(/config\.phone_number must be an E\.164/),
    });
    const twice = await action.check(
      settings,
      {},
      { type: "action_transfer_call", config: { phone_number: "+15550100200", phoneNumber: "+15550100300" } },
    );
    expect(twice.failures).toContainEqual({
      property: "",
      reason: expect.stringMatching(/config[^/]*two different numbers/),
    });

    const checked = await action.check(
      settings,
      {},
      { type: "action_transfer_call", config: { phone_number: "+15550100200" } },
    );
    expect(checked.failures ?? []).toEqual([]);
    const made = await action.create(settings, checked.inputs);
    expect(stored?.config).toEqual({ phone_number: "+15550100200" });
    const read = await action.read(settings, made.id, made.outs ?? {});
    // The next up: the program's config, checked again, against what refresh read back.
    const again = await action.check(settings, read.props ?? {}, {
      type: "action_transfer_call",
      config: { phone_number: "+15550100200" },
    });
    expect(await action.diff(settings, made.id, read.props ?? {}, again.inputs)).toMatchObject({ changes: false });
  });
});

describe("pulumi import of numbers, named by E.164", () => {
  const numberOf = (bound: boolean) => ({
    id: randomUUID(),
    user_id: USER,
    number: "+15550010002",
    active: true,
    inbound_agent: bound ? agent : null,
  });
  const serveNumber = (n: ReturnType<typeof numberOf>) =>
    serve((req) => {
      if (req.path === "/v1/numbers/list")
        return { json: { items: [n], page: 1, size: 100, total: 1, has_more: false } };
      if (req.path === "/v1/numbers" && req.query.phone_number === n.number) return { json: n };
      return { status: 404, json: { detail: "Not Found" } };
    });

  it("records the number's UUID as the id, as a create would, for a binding and a purchase", async () => {
    const bound = numberOf(true);
    const settings = await serveNumber(bound);
    for (const kind of ["PhoneNumber", "PurchasedNumber"]) {
      const r = await runtimeFor(kind).read(settings, bound.number, {});
      expect(r.id, kind).toBe(bound.id);
      expect(r.inputs, kind).toMatchObject({ number: bound.number });
    }
    await expect(
      runtimeFor("PhoneNumber").read(settings, bound.id, { number: bound.number, inboundAgent: agent.id }),
    ).resolves.toMatchObject({ id: bound.id });
  });

  it("an unbound number is refused as a PhoneNumber, pointing at PurchasedNumber; refresh of a recorded binding still shows it unbound", async () => {
    const unbound = numberOf(false);
    const settings = await serveNumber(unbound);
    await expect(runtimeFor("PhoneNumber").read(settings, unbound.number, {})).rejects.toThrow(
      /bound to no agent.*PurchasedNumber/,
    );
    expect((await runtimeFor("PurchasedNumber").read(settings, unbound.number, {})).id).toBe(unbound.id);
    const refreshed = await runtimeFor("PhoneNumber").read(settings, unbound.id, {
      number: unbound.number,
      inboundAgent: agent.id,
    });
    expect(refreshed.props?.inboundAgent).toBeUndefined();
  });
});
