import { PACKAGE, tokenOf } from "../identity.js";
import { SETTINGS } from "../resources/kit/setting-docs.js";
import { PLUGIN_DOWNLOAD_URL } from "../native/version.js";
import { ENUMS, type EnumName, type KindDescription, type PropertyDescription, type TypeRef } from "./describe.js";
import type { FunctionDescription } from "./describe-function.js";
import { functionsSpec, namedTypes } from "./function-schema.js";
import type { JsonObject } from "../schemas/json.js";
import { typeSpec } from "./type-spec.js";
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

/** An open object's description: its own doc and the keys it documents. */
function describedWithKeys(doc: string, t: TypeRef): string {
  if (t.shape !== "object" || t.known.length === 0) return doc;
  return `${doc}\n\n${t.known.map((k) => `- \`${k.name}\`: ${k.doc}`).join("\n")}`;
}

function propertySpec(p: PropertyDescription, side: "input" | "output"): JsonObject {
  const type = side === "input" && p.input ? p.input.type : p.output.type;
  return {
    ...typeSpec(type),
    description: describedWithKeys(p.doc, type),
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

/** The enum types the kinds use, each described by the first property that uses it. */
function enumTypes(kinds: readonly KindDescription[]): JsonObject {
  const found = new Map<EnumName, string>();
  const visit = (t: TypeRef, doc: string) => {
    if (t.shape === "enum" && !found.has(t.name)) found.set(t.name, doc);
    if (t.shape === "array") visit(t.items, doc);
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
        requires: { pulumi: ">=3.0.0,<4.0.0" },
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
    resources: Object.fromEntries(kinds.map((k) => [tokenOf(k.kind), resourceSpec(k)])),
    functions: functionsSpec(functions),
    types: { ...enumTypes(kinds), ...namedTypes(functions) },
  };
}
