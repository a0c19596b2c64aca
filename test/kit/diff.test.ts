// diff: derived from each kind's one declaration, property by property.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { UNKNOWN } from "../../provider/resources/kit/unknown.js";

const id = () => randomUUID();
const diff = (kind: string, olds: Record<string, unknown>, news: Record<string, unknown>, objectId = "x") =>
  runtimeFor(kind).diff(undefined, objectId, olds, news);

describe("diff is field-aware", () => {
  const voice = id();
  const [a1, a2] = [id(), id()];
  const state = { prompt: "p", voice, actions: [a1, a2], userId: id() };

  it("an unchanged program is no change, whatever the order of sets or the outputs recorded", async () => {
    expect(await diff("Agent", state, { prompt: "p", voice, actions: [a2, a1] })).toMatchObject({
      changes: false,
      replaces: [],
    });
    expect(
      await diff(
        "Webhook",
        { url: "https://a", method: "POST", subscriptions: ["event_message", "event_recording"] },
        { url: "https://a", subscriptions: ["event_recording", "event_message"] },
      ),
    ).toMatchObject({ changes: false });
    expect(
      await diff(
        "Voice",
        { voiceName: "a", pitch: 0, rate: 1, type: "voice_base" },
        { voiceName: "a", pitch: 0, rate: 1 },
      ),
    ).toMatchObject({ changes: false });
  });

  it("an empty opening message is the same as none", async () => {
    expect(await diff("Agent", state, { prompt: "p", voice, actions: [a1, a2], initialMessage: "" })).toMatchObject({
      changes: false,
    });
    expect(
      await diff(
        "Agent",
        { ...state, initialMessage: "Hi" },
        { prompt: "p", voice, actions: [a1, a2], initialMessage: "" },
      ),
    ).toMatchObject({ changes: true });
  });

  it("a changed field updates in place; a replace-only field replaces", async () => {
    expect(await diff("Agent", state, { prompt: "q", voice, actions: [a1, a2] })).toEqual({
      changes: true,
      changed: ["prompt"],
      replaces: [],
    });
    expect(await diff("Agent", state, { prompt: "p", voice, actions: [a1, a2], agentId: id() })).toEqual({
      changes: true,
      changed: ["agentId"],
      replaces: ["agentId"],
    });
    expect(
      await diff(
        "PhoneNumber",
        { number: "+15550010001", inboundAgent: a1 },
        { number: "+15550010002", inboundAgent: a1 },
      ),
    ).toMatchObject({ changes: true, replaces: ["number"] });
    expect(
      await diff(
        "PhoneNumber",
        { number: "+15550010001", inboundAgent: a1 },
        { number: "+15550010001", inboundAgent: a2 },
      ),
    ).toMatchObject({ changes: true, replaces: [] });
  });

  it("a 0.1.0 binding's recorded cancelOnDelete and copied outputs are no change", async () => {
    const old = {
      number: "+15550010001",
      inboundAgent: a1,
      cancelOnDelete: false,
      active: true,
      numberId: id(),
      inboundAgentPrompt: "p",
    };
    expect(await diff("PhoneNumber", old, { number: "+15550010001", inboundAgent: a1 })).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it("a bought number: an unset areaCode or number is never a difference; another area code replaces", async () => {
    const bought = { number: "+14155550100", areaCode: "415", active: true };
    expect(await diff("PurchasedNumber", bought, {})).toMatchObject({ changes: false, replaces: [] });
    expect(await diff("PurchasedNumber", bought, { areaCode: "415" })).toMatchObject({ changes: false, replaces: [] });
    expect(await diff("PurchasedNumber", bought, { areaCode: "212" })).toMatchObject({
      changes: true,
      replaces: ["areaCode"],
    });
  });

  it("areaCode is compared with the live number's area code, not with what was asked", async () => {
    // Adopted: no areaCode was ever recorded. Naming the area it is in must not buy another and cancel it.
    const adopted = { number: "+14155550100", active: true };
    expect(await diff("PurchasedNumber", adopted, { number: adopted.number, areaCode: "415" })).toMatchObject({
      changes: false,
      replaces: [],
    });
    expect(await diff("PurchasedNumber", adopted, { areaCode: "415" })).toMatchObject({ changes: false, replaces: [] });
    expect(await diff("PurchasedNumber", adopted, { areaCode: "212" })).toMatchObject({
      changes: true,
      replaces: ["areaCode"],
    });
    // Asked for 415, holds a 212 number: the recorded echo says 415, the live number does not.
    const outside = { number: "+12125550100", areaCode: "415", active: true };
    expect(await diff("PurchasedNumber", outside, { areaCode: "415" })).toMatchObject({
      changes: true,
      replaces: ["areaCode"],
    });
  });

  it("an adoption id naming the object the resource already manages is no change; another one replaces", async () => {
    const agent = id();
    expect(await diff("Agent", state, { prompt: "p", voice, actions: [a1, a2], agentId: agent }, agent)).toMatchObject({
      changes: false,
      replaces: [],
    });
    expect(await diff("Agent", state, { prompt: "p", voice, actions: [a1, a2], agentId: id() }, agent)).toMatchObject({
      changes: true,
      replaces: ["agentId"],
    });
    const v = id();
    expect(
      await diff(
        "Voice",
        { voiceName: "a", pitch: 0, rate: 1, type: "voice_base" },
        { voiceName: "a", pitch: 0, rate: 1, voiceId: v },
        v,
      ),
    ).toMatchObject({ changes: false });
    const w = id();
    const hook = { url: "https://a", method: "POST", subscriptions: ["event_message"] };
    expect(await diff("Webhook", hook, { ...hook, webhookId: w }, w)).toMatchObject({ changes: false });
    const act = id();
    expect(await diff("Action", { type: "action_end_conversation", config: {} }, { actionId: act }, act)).toMatchObject(
      { changes: false },
    );
  });

  it("a call is placed again only for who calls whom, the agent or triggers, ending the old one first", async () => {
    const call = { fromNumber: "+15550010001", toNumber: "+15557650000", agent: a1, status: "not_started" };
    expect(await diff("Call", call, { ...call, toNumber: "+15557650001" })).toMatchObject({
      changes: true,
      replaces: ["toNumber"],
      deleteBeforeReplace: true,
    });
    expect(await diff("Call", call, { ...call, triggers: [2] })).toMatchObject({
      changes: true,
      replaces: ["triggers"],
      deleteBeforeReplace: true,
    });
    expect(
      await diff("Call", { ...call, allowedDestinations: ["+1555765*"] }, { ...call, allowedDestinations: ["+1555*"] }),
    ).toMatchObject({ changes: true, replaces: [] });
    expect(await diff("Call", call, { fromNumber: call.fromNumber, toNumber: call.toNumber, agent: a1 })).toMatchObject(
      { changes: false, replaces: [] },
    );
  });

  it("an unknown input during preview counts as a change", async () => {
    expect(await diff("Agent", state, { prompt: "p", voice: UNKNOWN, actions: [a1, a2] })).toMatchObject({
      changes: true,
    });
  });
});
