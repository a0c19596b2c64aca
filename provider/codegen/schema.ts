import { PACKAGE, tokenOf } from "../identity.js";
import { SETTINGS } from "../resources/kit/setting-docs.js";
import { PLUGIN_DOWNLOAD_URL } from "../native/version.js";
import { ENUMS, type EnumName, type KindDescription, type PropertyDescription, type TypeRef } from "./describe.js";
import type { FunctionDescription } from "./describe-function.js";
import { functionsSpec, namedTypes } from "./function-schema.js";
import type { JsonObject } from "../schemas/json.js";
import { typeSpec } from "./type-spec.js";
import { fleetSchema } from "./fleet-schema.js";
import { pythonReadme, resourceDescription } from "./resource-docs.js";

// The Pulumi package schema (https://www.pulumi.com/docs/iac/guides/building-extending/packages/schema/)
// built from the kinds' descriptions: what `GetSchema` answers and SDK generators read.

/** The Go module's import path of the generated SDK's package. */
export const GO_IMPORT_BASE_PATH = "github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/go/voiceagent";

/** What the schema says about the package besides its resources, taken from provider/package.json. */
export interface PackageInfo {
  version: string;
  description: string;
  keywords: readonly string[];
  license: string;
}

function propertySpec(p: PropertyDescription, side: "input" | "output"): JsonObject {
  const type = side === "input" && p.input ? p.input.type : p.output.type;
  return {
    ...typeSpec(type),
    description: p.doc,
    ...(side === "input" && p.input?.default !== undefined ? { default: p.input.default } : {}),
    ...((side === "output" ? p.output.secret : p.input?.secret) ? { secret: true } : {}),
    ...(p.replaces ? { replaceOnChanges: true } : {}),
    ...(p.deprecated ? { deprecationMessage: p.deprecated } : {}),
  };
}

function resourceSpec(k: KindDescription): JsonObject {
  const inputs = k.properties.filter((p) => p.input);
  return {
    description: resourceDescription(k, tokenOf(k.kind)),
    properties: Object.fromEntries(k.properties.map((p) => [p.name, propertySpec(p, "output")])),
    required: k.properties.filter((p) => p.output.required).map((p) => p.name),
    inputProperties: Object.fromEntries(inputs.map((p) => [p.name, propertySpec(p, "input")])),
    requiredInputs: inputs.filter((p) => p.input?.required).map((p) => p.name),
    // What `Agent.get(name, id, state)` takes in the SDKs: every property, none required.
    stateInputs: {
      description: `Input properties used for looking up and filtering ${k.kind} resources.`,
      properties: Object.fromEntries(k.properties.map((p) => [p.name, propertySpec(p, "output")])),
      type: "object",
    },
  };
}

/** The types a type is made of, itself first, each nested object's keys after it. */
function partsOf(t: TypeRef): TypeRef[] {
  if (t.shape === "array") return [t, ...partsOf(t.items)];
  if (t.shape === "map") return [t, ...partsOf(t.values)];
  if (t.shape === "object") return [t, ...t.known.flatMap((k) => partsOf(k.type))];
  return [t];
}

/** The enum types the kinds use, each described by the first property that uses it (a nested key by its own doc). */
function enumTypes(kinds: readonly KindDescription[]): JsonObject {
  const found = new Map<EnumName, string>();
  const visit = (t: TypeRef, doc: string) => {
    for (const part of partsOf(t)) {
      if (part.shape === "enum" && !found.has(part.name)) found.set(part.name, doc);
      if (part.shape === "object")
        for (const k of part.known)
          if (k.type.shape === "enum" && !found.has(k.type.name))
            found.set(k.type.name, `${part.name}.${k.name}: ${k.doc}`);
    }
  };
  for (const k of kinds)
    for (const p of k.properties) if (p.input) visit(p.input.type, `${k.kind}.${p.name}: ${p.doc}`);
  return Object.fromEntries(
    [...found].map(([name, doc]) => [
      tokenOf(name),
      {
        type: "string",
        description: `${name}, as ${doc}`,
        enum: ENUMS[name].map((value) => ({ name: enumMemberName(value, ENUMS[name]), value })),
      },
    ]),
  );
}

type ObjectRef = Extract<TypeRef, { shape: "object" }>;

/**
 * The named object types of the kinds' nested inputs and outputs (`AgentLlmFallback`...), each
 * once: its description, each key's type and description, the keys it requires.
 */
function objectTypes(kinds: readonly KindDescription[]): JsonObject {
  const found = new Map<string, ObjectRef>();
  for (const k of kinds)
    for (const p of k.properties)
      for (const t of [p.input?.type, p.output.type])
        for (const part of t ? partsOf(t) : [])
          if (part.shape === "object") {
            const seen = found.get(part.name);
            if (seen && JSON.stringify(seen) !== JSON.stringify(part))
              throw new Error(`${part.name}: two different nested objects would share this type name`);
            found.set(part.name, part);
          }
  return Object.fromEntries(
    [...found.values()].map((o) => {
      const required = o.known.filter((k) => k.required).map((k) => k.name);
      return [
        tokenOf(o.name),
        {
          description: o.open
            ? `${o.doc} The keys below are typed; the provider passes any other key to the service as it is.`
            : o.doc,
          type: "object",
          properties: Object.fromEntries(o.known.map((k) => [k.name, { ...typeSpec(k.type), description: k.doc }])),
          ...(required.length ? { required } : {}),
        },
      ];
    }),
  );
}

/** The word every value of an enumeration starts with (`voice_`), or "": the type's name already says it. */
function sharedPrefix(values: readonly string[]): string {
  const first = /^[a-z]+_/.exec(values[0] ?? "")?.[0] ?? "";
  return first && values.every((v) => v.startsWith(first)) ? first : "";
}

/**
 * `voice_eleven_labs` → `ElevenLabs`, `GET` → `Get`: a member name every language accepts, without
 * the word all values share (Python's `VoiceType.ELEVEN_LABS`, Go's `VoiceTypeElevenLabs`, not
 * `VoiceType.VOICE_ELEVEN_LABS` and `VoiceTypeVoiceElevenLabs`).
 */
function enumMemberName(value: string, values: readonly string[]): string {
  return value
    .slice(sharedPrefix(values).length)
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join("");
}

function settingsSpec(): JsonObject {
  return Object.fromEntries(
    SETTINGS.map((s) => [
      s.name,
      {
        type: "string",
        description: s.doc,
        ...(s.default !== undefined ? { default: s.default } : {}),
        defaultInfo: { environment: [s.env] },
        ...(s.secret ? { secret: true } : {}),
      },
    ]),
  );
}

/** The package schema for these kinds. */
export function buildSchema(
  kinds: readonly KindDescription[],
  pkg: PackageInfo,
  functions: readonly FunctionDescription[] = [],
): JsonObject {
  const fleet = fleetSchema(kinds);
  return {
    name: PACKAGE,
    displayName: "Voice Agent",
    version: pkg.version,
    // Not the npm package's text: that one ships a typed client, the SDKs generated from this do not.
    description:
      "Pulumi resources for the voice agent calling service: agents, voices, actions, webhooks, phone numbers and calls.",
    keywords: [...pkg.keywords, "kind/native"],
    license: pkg.license,
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    meta: { moduleFormat: "(.*)" },
    language: {
      nodejs: {
        packageName: "pulumi-voiceagent",
        packageDescription: pkg.description,
        dependencies: { "@pulumi/pulumi": "^3.0.0" },
        respectSchemaVersion: true,
      },
      python: {
        packageName: "pulumi_voiceagent",
        readme: pythonReadme(pkg.version),
        // 3.269.0 is the first Python SDK with `exists_resource`, which every generated class's `exists` calls.
        requires: { pulumi: ">=3.269.0,<4.0.0" },
        respectSchemaVersion: true,
        pyproject: { enabled: true },
      },
      go: { importBasePath: GO_IMPORT_BASE_PATH, generateResourceContainerTypes: true, respectSchemaVersion: true },
    },
    config: { variables: settingsSpec() },
    provider: {
      description:
        "The provider for the voice agent service: its settings default to the stack's `voiceagent:*` config. Declare one " +
        "explicitly to manage two accounts (or staging and production) in one program.",
      inputProperties: settingsSpec(),
    },
    resources: { ...Object.fromEntries(kinds.map((k) => [tokenOf(k.kind), resourceSpec(k)])), ...fleet.resources },
    functions: functionsSpec(functions),
    types: { ...enumTypes(kinds), ...objectTypes(kinds), ...namedTypes(functions), ...fleet.types },
  };
}
