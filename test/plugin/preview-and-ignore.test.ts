// Two answers of the plain provider that send nothing: an update's preview (what the service
// computes and an update reads back is unknown, what never changes stays as recorded) and a Diff
// given the resource's ignoreChanges paths (an ignored nested value the service holds otherwise
// is no change).
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/resources/kit/unknown.js";
import { inProcessPlugin } from "../helpers/plugin-harness.js";

const urn = (kind: string) => `urn:pulumi:dev::proj::voiceagent:index:${kind}::r`;
const type = (kind: string) => `voiceagent:index:${kind}`;
const voice = randomUUID();

describe("an update's preview", () => {
  it("shows unknown the outputs an update reads back, and an input left to the service; the owner as recorded", async () => {
    const { provider } = inProcessPlugin();
    const oldInputs = { prompt: "Old.", voice, language: "en", actions: [] };
    const { properties } = await provider.update({
      urn: urn("Agent"),
      type: type("Agent"),
      id: randomUUID(),
      olds: { ...oldInputs, userId: "user-1" },
      oldInputs,
      news: { prompt: "New.", voice, actions: [] },
      preview: true,
    });
    expect(properties).toMatchObject({ prompt: "New.", userId: "user-1", language: UNKNOWN });
    const number = await provider.update({
      urn: urn("PhoneNumber"),
      type: type("PhoneNumber"),
      id: randomUUID(),
      olds: { number: "+15550100100", inboundAgent: "a", active: true, numberId: "n-1", userId: "user-1" },
      oldInputs: { number: "+15550100100", inboundAgent: "a" },
      news: { number: "+15550100100", inboundAgent: "b" },
      preview: true,
    });
    expect(number.properties).toMatchObject({ inboundAgent: "b", active: UNKNOWN, numberId: "n-1", userId: "user-1" });
  });
});

describe("Diff with ignoreChanges", () => {
  it("takes the recorded value at each ignored path, so an ignored nested value is no change", async () => {
    const { provider } = inProcessPlugin();
    const olds = { prompt: "Hi.", voice, actions: [], deepgramKeywords: { pulumi: 2, voice: 1 } };
    const news = { ...olds, deepgramKeywords: { pulumi: 3, voice: 1 } };
    const req = { urn: urn("Agent"), type: type("Agent"), id: randomUUID(), olds, oldInputs: olds, news };
    expect((await provider.diff(req)).changes).toBe(true);
    expect((await provider.diff({ ...req, ignoreChanges: ["deepgramKeywords.pulumi"] })).changes).toBe(false);
    expect((await provider.diff({ ...req, ignoreChanges: ['deepgramKeywords["voice"]'] })).changes).toBe(true);
    expect((await provider.diff({ ...req, ignoreChanges: ["deepgramKeywords.*"] })).changes).toBe(false);
  });
});
