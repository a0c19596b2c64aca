// Two answers of the plain provider that send nothing: an update's preview (what the service
// computes and an update reads back is unknown, what never changes stays as recorded) and a Diff
// given the resource's ignoreChanges paths (an ignored nested value the service holds otherwise
// is no change); and the schema's output-only secrets marked by path at any depth.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SECRET_SIG, SIG_KEY, structOf } from "../../provider/plugin/grpc.js";
import { schemaOutputs } from "../../provider/plugin/schema-outputs.js";
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

describe("output-only secrets at any depth", () => {
  it("are read from the schema by path and wrapped where they hold a value", () => {
    const schema = JSON.stringify({
      resources: {
        "voiceagent:index:Thing": {
          inputProperties: { name: { type: "string" } },
          properties: {
            name: { type: "string" },
            transcript: { type: "string", secret: true },
            account: { $ref: "#/types/voiceagent:index:Account" },
            keys: { type: "array", items: { $ref: "#/types/voiceagent:index:Account" } },
          },
        },
      },
      types: {
        "voiceagent:index:Account": {
          properties: { sid: { type: "string" }, authToken: { type: "string", secret: true } },
        },
      },
    });
    const secrets = schemaOutputs(schema).get("voiceagent:index:Thing")?.secrets ?? [];
    expect(secrets).toEqual(["transcript", "account.authToken", "keys[*].authToken"]);
    const out = structOf(
      {
        name: "n",
        transcript: "said",
        account: { sid: "AC1", authToken: "t1" },
        keys: [{ sid: "AC2", authToken: "t2" }, { sid: "AC3" }],
      },
      secrets,
    ).toJavaScript();
    const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });
    expect(out).toEqual({
      name: "n",
      transcript: secret("said"),
      account: { sid: "AC1", authToken: secret("t1") },
      keys: [{ sid: "AC2", authToken: secret("t2") }, { sid: "AC3" }],
    });
  });
});
