// The functions and the static reads in the committed package schema: what every SDK generator
// reads to emit getX/getXOutput and Resource.get(name, id, state). Each function has its arguments
// and results typed and described, its secrets marked, and an example in each language.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FUNCTIONS } from "../../provider/resources/functions/index.js";
import { KINDS } from "../../provider/resources/kinds/index.js";
import { REPO_ROOT } from "../helpers/consumer.js";

interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  description?: string;
  secret?: boolean;
}
interface ObjectSpec {
  properties: Record<string, PropertySpec>;
  required?: string[];
  description?: string;
}
const schema: {
  functions: Record<string, { description: string; inputs?: ObjectSpec; outputs: ObjectSpec }>;
  resources: Record<string, { properties: Record<string, PropertySpec>; stateInputs?: ObjectSpec }>;
  types: Record<string, ObjectSpec>;
} = JSON.parse(readFileSync(path.join(REPO_ROOT, "provider", "schema.json"), "utf8"));

/** Every secret key of a function's outputs, following list items into their named types. */
function secretKeys(spec: ObjectSpec, at = ""): string[] {
  return Object.entries(spec.properties).flatMap(([name, p]) => {
    const item = p.items?.$ref ? schema.types[p.items.$ref.replace("#/types/", "")] : undefined;
    if (item) return secretKeys(item, `${at}${name}[].`);
    return p.secret ? [`${at}${name}`] : [];
  });
}

describe("functions in the package schema", () => {
  it("are exactly the registry's, each with a description and an example in TypeScript, Python and Go", () => {
    expect(Object.keys(schema.functions)).toEqual(FUNCTIONS.map((f) => `voiceagent:index:${f.name}`));
    for (const [token, f] of Object.entries(schema.functions)) {
      for (const lang of ["typescript", "python", "go"])
        expect(f.description, `${token} ${lang}`).toContain("```" + lang);
      for (const p of [...Object.values(f.inputs?.properties ?? {}), ...Object.values(f.outputs.properties)]) {
        expect(p.description, token).toBeTruthy();
        expect(p.type ?? p.$ref, token).toBeTruthy();
      }
    }
  });

  it("mark secret exactly a call's transcript and error message, an agent's prompt, a webhook's and an external action's URL, \
a prompt's text and the credentials", () => {
    const secrets = Object.fromEntries(
      Object.entries(schema.functions).flatMap(([t, f]): [string, string[]][] => {
        const keys = secretKeys(f.outputs);
        return keys.length ? [[t.split(":").pop() ?? t, keys]] : [];
      }),
    );
    expect(secrets).toEqual({
      getAgent: ["prompt"],
      getAgents: ["agents[].prompt"],
      getWebhooks: ["webhooks[].url"],
      // Like a webhook's, an external action's URL may carry a key in its query.
      getActions: ["actions[].url"],
      getCall: ["transcript", "errorMessage"],
      getPrompt: ["content"],
      getPrompts: ["prompts[].content"],
      getVectorDatabase: ["apiKey"],
      getVectorDatabases: ["vectorDatabases[].apiKey"],
      getAccountConnection: ["openaiApiKey", "twilioAuthToken"],
      getAccountConnections: ["accountConnections[].openaiApiKey", "accountConnections[].twilioAuthToken"],
    });
  });

  it("say which arguments are required: getPhoneNumber's number, getAgent's and getCall's id", () => {
    const required = Object.fromEntries(
      Object.entries(schema.functions).map(([t, f]) => [t.split(":").pop(), f.inputs?.required ?? []]),
    );
    expect(required).toMatchObject({
      getPhoneNumber: ["number"],
      getAgent: ["id"],
      getCall: ["id"],
      getVoice: [],
      getPhoneNumbers: [],
    });
  });
});

describe("stateInputs", () => {
  it("every kind lists all its properties as optional state, so Resource.get(name, id, state) takes them in every SDK", () => {
    for (const k of KINDS) {
      const res = schema.resources[`voiceagent:index:${k.kind}`]!;
      expect(Object.keys(res.stateInputs?.properties ?? {}).sort(), k.kind).toEqual(Object.keys(res.properties).sort());
      expect(res.stateInputs?.required, k.kind).toBeUndefined();
    }
  });
});
