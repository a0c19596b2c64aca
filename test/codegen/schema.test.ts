// The package schema is generated from the kinds (npm run gen) and committed: the plugin serves it
// and the SDKs are generated from it, so a stale file would give users types and docs that no
// longer match what the provider does.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { typeOf } from "../../provider/codegen/describe.js";
import { generatedFiles } from "../../provider/codegen/generated.js";
import { closedObject } from "../../provider/resources/kit/check.js";
import { KINDS } from "../../provider/resources/kinds/index.js";
import { REPO_ROOT } from "../helpers/consumer.js";

const providerDir = path.join(REPO_ROOT, "provider");
const schemaPath = path.join(providerDir, "schema.json");
const committed = readFileSync(schemaPath, "utf8");

interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
}
interface ResourceSpec {
  description: string;
  properties: Record<string, PropertySpec>;
  inputProperties: Record<string, PropertySpec>;
  required: string[];
  requiredInputs: string[];
}
const schema: {
  name: string;
  version: string;
  resources: Record<string, ResourceSpec>;
  types: Record<
    string,
    { enum?: { value: string }[]; properties?: Record<string, PropertySpec>; required?: string[]; description?: string }
  >;
  config: { variables: Record<string, PropertySpec> };
  provider: { inputProperties: Record<string, PropertySpec> };
} = JSON.parse(committed);

/** Every spot in a property's spec that must say its type: itself, its items, its values. */
function untyped(where: string, p: PropertySpec): string[] {
  const own = p.type === undefined && p.$ref === undefined ? [where] : [];
  return [
    ...own,
    ...(p.items ? untyped(`${where}[]`, p.items) : []),
    ...(p.additionalProperties ? untyped(`${where}{}`, p.additionalProperties) : []),
  ];
}

describe("provider/schema.json", () => {
  it("is what npm run gen writes from the kinds today (run `npm run gen` after changing a kind)", () => {
    const fresh = generatedFiles(providerDir).find((f) => f.path === schemaPath);
    expect(fresh?.text).toBe(committed);
  });

  it("and so is every other generated file: the public classes and their index", () => {
    const files = generatedFiles(providerDir).filter((f) => f.path !== schemaPath);
    expect(files.map((f) => path.relative(providerDir, f.path))).toContain("generated/dynamic/agent.ts");
    const stale = files
      .filter((f) => readFileSync(f.path, "utf8") !== f.text)
      .map((f) => path.relative(providerDir, f.path));
    expect(stale).toEqual([]);
  });

  it("shows each SDK its own example, and says how to import each kind only where the service can read one back", () => {
    for (const k of KINDS) {
      const d = schema.resources[`voiceagent:index:${k.kind}`]?.description ?? "";
      for (const lang of ["typescript", "python", "go"]) expect(d, `${k.kind} ${lang}`).toContain("```" + lang);
      // The plugin's import reads the object back: a kind without a read cannot say it imports.
      expect(d.includes("$ pulumi import"), k.kind).toBe("read" in k.info);
    }
  });

  it("names the package and version of provider/package.json", () => {
    const pkg = JSON.parse(readFileSync(path.join(providerDir, "package.json"), "utf8"));
    expect(schema.name).toBe("voiceagent");
    expect(schema.version).toBe(pkg.version);
  });

  it("has every property of every kind, documented, as an input and as an output", () => {
    const missing: string[] = [];
    for (const { info: def } of KINDS) {
      const r = schema.resources[`voiceagent:index:${def.kind}`];
      if (!r) {
        missing.push(`${def.kind}: no resource`);
        continue;
      }
      if (!r.description.trim()) missing.push(`${def.kind}: no description`);
      for (const name of Object.keys(def.fields)) {
        if (!r.inputProperties[name]?.description) missing.push(`${def.kind}.${name}: no documented input`);
        if (!r.properties[name]?.description) missing.push(`${def.kind}.${name}: no documented output`);
      }
      for (const name of Object.keys(def.outputs)) {
        if (!r.properties[name]?.description) missing.push(`${def.kind}.${name}: no documented output`);
        if (name in r.inputProperties) missing.push(`${def.kind}.${name}: an output only, listed as an input`);
      }
      const declared = [...Object.keys(def.fields), ...Object.keys(def.outputs)];
      for (const name of Object.keys(r.properties))
        if (!declared.includes(name)) missing.push(`${def.kind}.${name}: in the schema, not in the kind`);
    }
    expect(missing).toEqual([]);
  });

  it("gives every property, config variable and provider input a type", () => {
    const specs = [
      ...Object.entries(schema.resources).flatMap(([token, r]) => [
        ...Object.entries(r.properties).map(([n, p]) => [`${token}.${n}`, p] as const),
        ...Object.entries(r.inputProperties).map(([n, p]) => [`${token} input ${n}`, p] as const),
      ]),
      ...Object.entries(schema.config.variables).map(([n, p]) => [`config ${n}`, p] as const),
      ...Object.entries(schema.provider.inputProperties).map(([n, p]) => [`provider ${n}`, p] as const),
    ];
    expect(specs.length).toBeGreaterThan(40);
    expect(specs.flatMap(([where, p]) => untyped(where, p))).toEqual([]);
    // Every reference to a type of the package resolves.
    const refs = JSON.stringify(schema).match(/#\/types\/[^"]+/g) ?? [];
    expect(refs.filter((r) => !(r.slice("#/types/".length) in schema.types))).toEqual([]);
  });

  it("marks the personal data, the vendor keys and the token secret, and nothing else", () => {
    const secrets = Object.entries(schema.resources).flatMap(([token, r]) =>
      Object.entries(r.properties).flatMap(([n, p]) => (p.secret ? [`${token}.${n}`] : [])),
    );
    expect(secrets.sort()).toEqual([
      "voiceagent:index:AccountConnection.openaiApiKey",
      "voiceagent:index:AccountConnection.twilioAuthToken",
      "voiceagent:index:Action.signatureSecret",
      "voiceagent:index:Call.errorMessage",
      "voiceagent:index:Call.transcript",
      "voiceagent:index:VectorDatabase.apiKey",
      "voiceagent:index:Voice.apiKey",
      "voiceagent:index:Voice.apiUserId",
    ]);
    // A key is an input too: secret there, so the SDKs wrap what the program passes.
    const secretInputs = Object.entries(schema.resources).flatMap(([token, r]) =>
      Object.entries(r.inputProperties).flatMap(([n, p]) => (p.secret ? [`${token}.${n}`] : [])),
    );
    expect(secretInputs.sort()).toEqual([
      "voiceagent:index:AccountConnection.openaiApiKey",
      "voiceagent:index:AccountConnection.twilioAuthToken",
      "voiceagent:index:Action.signatureSecret",
      "voiceagent:index:VectorDatabase.apiKey",
      "voiceagent:index:Voice.apiKey",
      "voiceagent:index:Voice.apiUserId",
    ]);
    expect(schema.config.variables.token?.secret).toBe(true);
    expect(schema.provider.inputProperties.token?.secret).toBe(true);
    expect(Object.keys(schema.provider.inputProperties).sort()).toEqual([
      "api",
      "baseUrl",
      "extensions",
      "operationTimeout",
      "token",
    ]);
  });

  it("says which changes replace: the adoption ids, who calls whom, a number", () => {
    const replacing = Object.entries(schema.resources).flatMap(([token, r]) =>
      Object.entries(r.inputProperties).flatMap(([n, p]) =>
        p.replaceOnChanges ? [`${token.split(":")[2]}.${n}`] : [],
      ),
    );
    expect(replacing).toEqual(
      expect.arrayContaining(["Agent.agentId", "PhoneNumber.number", "Call.toNumber", "Call.triggers"]),
    );
    expect(replacing).not.toContain("Call.allowedDestinations");
    expect(replacing).not.toContain("Agent.prompt");
  });

  it("offers the enumerations the service knows as enum types", () => {
    const voiceType = schema.resources["voiceagent:index:Voice"]?.inputProperties.type;
    expect(voiceType?.$ref).toBe("#/types/voiceagent:index:VoiceType");
    expect(schema.types["voiceagent:index:VoiceType"]?.enum?.map((e) => e.value)).toContain("voice_eleven_labs");
    expect(schema.resources["voiceagent:index:Webhook"]?.inputProperties.subscriptions?.items?.$ref).toBe(
      "#/types/voiceagent:index:WebhookEvent",
    );
    // A deployed value may be one a newer service added: outputs are plain strings.
    expect(schema.resources["voiceagent:index:Voice"]?.properties.type).toMatchObject({ type: "string" });
    expect(schema.resources["voiceagent:index:Voice"]?.properties.type?.$ref).toBeUndefined();
  });

  it("types every nested input: an object its own type with each key's type, doc and enum; a record a map of its values", () => {
    const agent = schema.resources["voiceagent:index:Agent"];
    expect(agent?.inputProperties.llmFallback?.$ref).toBe("#/types/voiceagent:index:AgentLlmFallback");
    expect(agent?.properties.llmFallback?.$ref).toBe("#/types/voiceagent:index:AgentLlmFallback");
    expect(schema.types["voiceagent:index:AgentLlmFallback"]).toMatchObject({
      properties: {
        provider: { $ref: "#/types/voiceagent:index:LlmFallbackProvider", description: expect.any(String) },
        modelName: { type: "string", description: expect.any(String) },
      },
      required: ["provider", "modelName"],
    });
    expect(schema.types["voiceagent:index:LlmFallbackProvider"]?.enum?.map((e) => e.value)).toEqual([
      "openai",
      "azure",
    ]);
    expect(agent?.inputProperties.deepgramKeywords?.additionalProperties).toEqual({ type: "number" });
    expect(schema.resources["voiceagent:index:Prompt"]?.inputProperties.collectFields?.items?.$ref).toBe(
      "#/types/voiceagent:index:PromptCollectFields",
    );
    expect(schema.types["voiceagent:index:PromptCollectFields"]?.required).toEqual(["label", "name"]);
    expect(schema.resources["voiceagent:index:Action"]?.inputProperties.config?.$ref).toBe(
      "#/types/voiceagent:index:ActionConfig",
    );
    // No input is an untyped map any more (pulumi.json#/Any values): each has a shape the kinds declare.
    const anyMaps = Object.values(schema.resources).flatMap((r) =>
      Object.entries(r.inputProperties).filter(
        ([, p]) => (p.items ?? p).additionalProperties?.$ref === "pulumi.json#/Any",
      ),
    );
    expect(anyMaps).toEqual([]);
  });

  it("derives the type of a shape it has never seen from zod alone: a union of objects (action types) merges into one type", () => {
    const at = (description: string) => ({ description });
    const shape = z.object({
      config: z.discriminatedUnion("type", [
        closedObject({ type: z.literal("transfer").meta(at("Which.")), to: z.string().meta(at("Where.")) }),
        closedObject({ type: z.literal("dtmf").meta(at("Which.")), digits: z.string().optional().meta(at("What.")) }),
      ]),
      free: z.looseObject({}),
    });
    const js = z.toJSONSchema(shape, { io: "input", unrepresentable: "throw" }).properties ?? {};
    expect(typeOf(js.config ?? {}, "Thing.config")).toEqual({
      shape: "object",
      name: "ThingConfig",
      doc: "The `config` of a Thing.",
      known: [
        { name: "type", doc: "Which.", type: { shape: "string" }, required: true },
        { name: "to", doc: "Where.", type: { shape: "string" }, required: false },
        { name: "digits", doc: "What.", type: { shape: "string" }, required: false },
      ],
      open: false,
    });
    // An object of no documented keys is the one untyped escape: the service's own type is open.
    expect(typeOf(js.free ?? {}, "Thing.free")).toEqual({ shape: "map", name: "ThingFree", values: { shape: "any" } });
  });
});
