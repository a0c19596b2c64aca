import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApiAuthError, ApiNotFoundError, ApiValidationError } from "../../provider/client/index.js";
import { runtimeFor } from "../../provider/resources/providers.js";
import { explain, isGone, isRouteMissing } from "../../provider/resources/kit/errors.js";
import { UNKNOWN } from "../../provider/resources/kit/unknown.js";

const id = () => randomUUID();
const check = (kind: string, news: Record<string, unknown>) => runtimeFor(kind).check(undefined, {}, news);
const failuresOf = async (kind: string, news: Record<string, unknown>) => (await check(kind, news)).failures ?? [];

describe("check names the property for each invalid input", () => {
  it.each([
    ["Agent", { prompt: "p", voice: "not-a-uuid" }, "voice", /voice must be a UUID/],
    ["Agent", { prompt: "", voice: id() }, "prompt", /prompt must not be empty/],
    ["Agent", { voice: id() }, "prompt", /prompt is required/],
    ["Agent", { prompt: "p", voice: id(), actions: [id(), "x"] }, "actions", /actions\[1\] must be a UUID/],
    ["Agent", { prompt: "p", voice: id(), promt: "typo" }, "promt", /unknown property "promt"/],
    ["Voice", { voiceName: "a", pitch: 1.5, rate: 1 }, "pitch", /pitch must be an integer/],
    ["Voice", { voiceName: "a", pitch: 1, rate: 1, type: "voice_robot" }, "type", /type .*voice_base/],
    ["PhoneNumber", { number: "555-0100", inboundAgent: id() }, "number", /number must be an E\.164 phone number/],
    ["PhoneNumber", { number: "+15550100", inboundAgent: "agent" }, "inboundAgent", /inboundAgent must be a UUID/],
    ["Call", { fromNumber: "+15550010001", toNumber: "+15559990000", agent: id(), allowedDestinations: ["+1555765*"] }, "toNumber", /not in allowedDestinations/],
    ["Call", { fromNumber: "+15550010001", toNumber: "+15557650000", agent: id(), allowedDestinations: ["1555"] }, "allowedDestinations", /prefix ending in \*/],
    ["Webhook", { url: "ftp://x", subscriptions: ["event_message"] }, "url", /http\(s\) URL/],
    ["Webhook", { url: "https://x.example", method: "PUT", subscriptions: ["event_message"] }, "method", /method/],
    ["Webhook", { url: "https://x.example", subscriptions: [] }, "subscriptions", /at least one event/],
    ["Action", { type: "action_dance" }, "type", /type/],
    ["Action", { config: { phoneNumber: "12" } }, "config", /config\.phoneNumber must be an E\.164/],
  ] as const)("%s %j -> %s", async (kind, news, property, reason) => {
    const failures = await failuresOf(kind, news);
    expect(failures).toContainEqual({ property, reason: expect.stringMatching(reason) });
  });

  it("applies defaults and passes preview-time unknowns through", async () => {
    const voice = await check("Voice", { voiceName: "a", pitch: 0, rate: 1 });
    expect(voice.failures ?? []).toEqual([]);
    expect(voice.inputs).toMatchObject({ type: "voice_base" });
    const number = await check("PhoneNumber", { number: "+15550010001", inboundAgent: UNKNOWN });
    expect(number.failures ?? []).toEqual([]);
    expect(number.inputs).toMatchObject({ inboundAgent: UNKNOWN, cancelOnDelete: false });
    const agent = await check("Agent", { prompt: "p", voice: id(), actions: [UNKNOWN, id()] });
    expect(agent.failures ?? []).toEqual([]);
  });
});

describe("diff is field-aware", () => {
  const voice = id();
  const [a1, a2] = [id(), id()];
  const state = { prompt: "p", voice, actions: [a1, a2], userId: id(), voiceName: "alloy" };

  it("an unchanged program is no change, whatever the order of action ids or the outputs recorded", async () => {
    expect(await runtimeFor("Agent").diff(undefined, "x", state, { prompt: "p", voice, actions: [a2, a1] })).toEqual({ changes: false, replaces: [] });
    expect(await runtimeFor("Webhook").diff(undefined, "x", { url: "https://a", method: "POST", subscriptions: ["event_message", "event_recording"] }, { url: "https://a", subscriptions: ["event_recording", "event_message"] })).toMatchObject({ changes: false });
    expect(await runtimeFor("Voice").diff(undefined, "x", { voiceName: "a", pitch: 0, rate: 1, type: "voice_base" }, { voiceName: "a", pitch: 0, rate: 1 })).toMatchObject({ changes: false });
  });

  it("a changed field updates in place; a replace-only field replaces", async () => {
    expect(await runtimeFor("Agent").diff(undefined, "x", state, { prompt: "q", voice, actions: [a1, a2] })).toEqual({ changes: true, replaces: [] });
    expect(await runtimeFor("Agent").diff(undefined, "x", state, { prompt: "p", voice, actions: [a1, a2], agentId: id() })).toEqual({ changes: true, replaces: ["agentId"] });
    expect(await runtimeFor("PhoneNumber").diff(undefined, "+15550010001", { number: "+15550010001", inboundAgent: a1 }, { number: "+15550010002", inboundAgent: a1 })).toEqual({ changes: true, replaces: ["number"] });
    expect(await runtimeFor("PhoneNumber").diff(undefined, "+15550010001", { number: "+15550010001", inboundAgent: a1 }, { number: "+15550010001", inboundAgent: a2 })).toEqual({ changes: true, replaces: [] });
  });

  it("any change to a call replaces it, ending the old call first", async () => {
    const call = { fromNumber: "+15550010001", toNumber: "+15557650000", agent: a1, status: "not_started" };
    expect(await runtimeFor("Call").diff(undefined, "c", call, { ...call, toNumber: "+15557650001" })).toEqual({ changes: true, replaces: ["toNumber"], deleteBeforeReplace: true });
    expect(await runtimeFor("Call").diff(undefined, "c", call, { fromNumber: call.fromNumber, toNumber: call.toNumber, agent: a1 })).toEqual({ changes: false, replaces: [] });
  });

  it("an unknown input during preview counts as a change", async () => {
    expect(await runtimeFor("Agent").diff(undefined, "x", state, { prompt: "p", voice: UNKNOWN, actions: [a1, a2] })).toMatchObject({ changes: true });
  });
});

describe("errors say what failed and what to do", () => {
  const details = { status: 422, method: "POST", path: "/v1/numbers/update?phone_number=%2B1" };
  it("a 422 names the resource's property", () => {
    const err = new ApiValidationError("rejected", details, [{ loc: ["body", "inbound_agent"], msg: "agent not found", type: "x" }]);
    expect(explain("PhoneNumber", "update", err, { inbound_agent: "inboundAgent" }).message).toMatch(
      /^voiceagent:PhoneNumber update failed: rejected\. The service refused: inboundAgent: agent not found\.$/,
    );
  });
  it("a 401 says how to set the token", () => {
    const err = new ApiAuthError("refused (401)", { ...details, status: 401 });
    expect(explain("Agent", "create", err).message).toContain("pulumi config set --secret voiceagent:token");
  });
  it("missing credentials say which setting", async () => {
    const saved = { ...process.env };
    delete process.env.VOICEAGENT_BASE_URL;
    delete process.env.VOICEAGENT_TOKEN;
    try {
      await expect(runtimeFor("Agent").create({ token: "t" }, { prompt: "p", voice: id() })).rejects.toThrow(/voiceagent:baseUrl is not set/);
      await expect(runtimeFor("Agent").create({ baseUrl: "http://127.0.0.1:9" }, { prompt: "p", voice: id() })).rejects.toThrow(/voiceagent:token is not set/);
    } finally {
      process.env = saved;
    }
  });
});

describe("a missing route is not a missing object", () => {
  const at = { method: "GET", path: "/v1/voices?id=x" };
  it("404 with the framework's bare detail means the server lacks the route", () => {
    const err = new ApiNotFoundError("not found", { ...at, status: 404, detail: "Not Found" });
    expect(isRouteMissing(err)).toBe(true);
    expect(isGone(err)).toBe(false);
  });
  it("404 naming the object means it is gone", () => {
    const err = new ApiNotFoundError("not found", { ...at, status: 404, detail: "Voice not found" });
    expect(isRouteMissing(err)).toBe(false);
    expect(isGone(err)).toBe(true);
  });
});
