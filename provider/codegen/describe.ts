import { z } from "zod";
import { examplesOf, type SdkExamples } from "./examples.js";
import type { KindInfo } from "../resources/kit/kind.js";
import {
  ACTION_TRIGGER_TYPES,
  ACTION_TYPES,
  EXTERNAL_PROCESSING_MODES,
  PHRASE_CONDITIONS,
  CALL_STATUSES,
  ACCOUNT_CONNECTION_TYPES,
  VECTOR_DATABASE_TYPES,
  ENDPOINTING_SENSITIVITIES,
  INTERRUPT_SENSITIVITIES,
  IVR_NAVIGATION_MODES,
  LANGUAGES,
  LLM_FALLBACK_PROVIDERS,
  PLAY_HT_QUALITIES,
  PLAY_HT_VERSIONS,
  RIME_MODEL_IDS,
  VOICE_TYPES,
  WEBHOOK_EVENTS,
  WEBHOOK_METHODS,
} from "../schemas/values.js";

// A kind as the generators see it: every property with its type, doc text and what it does, read
// from the kind's one declaration (the zod input for types and defaults, the fields for the rest).

/** The type of a property, independent of any one language. */
export type TypeRef =
  | { shape: "string" | "integer" | "number" | "boolean" | "any" }
  | { shape: "enum"; name: EnumName; values: readonly string[] }
  | { shape: "array"; items: TypeRef }
  /**
   * An object of known keys (a nested input: an agent's `llmFallback`), a named type in the
   * schema. `open`: keys it does not document pass to the service as they are (an action's config).
   */
  | { shape: "object"; name: string; doc: string; known: NestedProperty[]; open: boolean }
  /** A map from any key to values of one type (an agent's `deepgramKeywords`, `any` for a free-form object). */
  | { shape: "map"; name: string; values: TypeRef }
  /** A closed object type of a function's result (a list's item, e.g. `FoundVoice`). */
  | { shape: "named"; name: string; doc: string; properties: FunctionProperty[] };

/** One argument or result key of a function. */
export interface FunctionProperty {
  name: string;
  doc: string;
  type: TypeRef;
  required: boolean;
  /** A result key that comes back secret. */
  secret: boolean;
}

/** A documented key of an open object (an action's `config.phoneNumber`). */
export interface NestedProperty {
  name: string;
  doc: string;
  type: TypeRef;
  required: boolean;
}

/** One property of a kind: an input (its output is the value as deployed) or an output only. */
export interface PropertyDescription {
  name: string;
  doc: string;
  deprecated?: string;
  /** Undefined for an output that is not an input. */
  input?: {
    type: TypeRef;
    required: boolean;
    default?: string | number | boolean;
    secret?: boolean;
    /** One resource only may hold its value in a program (the field's `boundOnce`). */
    boundOnce?: true;
  };
  /** The value as deployed: enums widen to string (a newer service may send new values). */
  output: { type: TypeRef; required: boolean; secret: boolean };
  replaces: boolean;
  /** An input the service assigns when the program leaves it unset (a bought number, `unset: "service-assigns"`): reported like an output. */
  reported: boolean;
}

/** A kind, described. */
export interface KindDescription {
  kind: string;
  doc: string;
  example: string;
  /** The example in the Python and Go SDKs. */
  examples: SdkExamples;
  /** What `pulumi import` names an object by; undefined: it cannot be imported. */
  importId?: string;
  /** The collection whose extension routes reading one back needs (and so an import does), when it needs them. */
  extensionReads?: string;
  /** The input that adopts an existing object, when the kind has one. */
  adopt?: string;
  properties: PropertyDescription[];
  deleteBeforeReplace: boolean;
}

/** The enumerations the schema names, by the type name of schemas/values.ts. */
export const ENUMS = {
  VoiceType: VOICE_TYPES,
  ActionType: ACTION_TYPES,
  ActionTriggerType: ACTION_TRIGGER_TYPES,
  PhraseCondition: PHRASE_CONDITIONS,
  ExternalProcessingMode: EXTERNAL_PROCESSING_MODES,
  WebhookMethod: WEBHOOK_METHODS,
  WebhookEvent: WEBHOOK_EVENTS,
  CallStatus: CALL_STATUSES,
  AccountConnectionType: ACCOUNT_CONNECTION_TYPES,
  VectorDatabaseType: VECTOR_DATABASE_TYPES,
  Language: LANGUAGES,
  InterruptSensitivity: INTERRUPT_SENSITIVITIES,
  EndpointingSensitivity: ENDPOINTING_SENSITIVITIES,
  IvrNavigationMode: IVR_NAVIGATION_MODES,
  LlmFallbackProvider: LLM_FALLBACK_PROVIDERS,
  PlayHtVersion: PLAY_HT_VERSIONS,
  PlayHtQuality: PLAY_HT_QUALITIES,
  RimeModelId: RIME_MODEL_IDS,
} as const;
/** The name of a known enumeration. */
export type EnumName = keyof typeof ENUMS;

const isEnumName = (name: string): name is EnumName => Object.hasOwn(ENUMS, name);

function enumNamed(values: readonly unknown[], where: string): TypeRef {
  const key = JSON.stringify([...values].sort());
  for (const name of Object.keys(ENUMS)) {
    if (isEnumName(name) && JSON.stringify([...ENUMS[name]].sort()) === key)
      return { shape: "enum", name, values: ENUMS[name] };
  }
  throw new Error(`${where}: an enumeration ${key} that schemas/values.ts does not name; add it there and to ENUMS`);
}

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Prompt.collectFields[]" → `PromptCollectFields`: a nested type is named after where it is (an array's item after the array). */
const typeNameOf = (where: string) => where.replaceAll("[]", "").split(".").map(pascal).join("");

/** Whether a JSON Schema's `additionalProperties` lets keys it does not document through (a loose object). */
const passesOthers = (extra: z.core.JSONSchema._JSONSchema | undefined) =>
  extra === true || (typeof extra === "object" && Object.keys(extra).length === 0);

/**
 * The type of an object schema: a record (`z.record`) is a map of its values' type; an object of
 * documented keys (`z.object`, `z.strictObject`, `z.looseObject`) a named object type, each key
 * with its description; an object of no documented keys a map of anything (the service's own type
 * is open there).
 */
function objectOf(js: z.core.JSONSchema.JSONSchema, where: string): TypeRef {
  const name = typeNameOf(where);
  const entries = Object.entries(js.properties ?? {});
  if (entries.length === 0) {
    const extra = js.additionalProperties;
    const values =
      typeof extra === "object" && !passesOthers(extra) ? typeOf(extra, `${where}{}`) : { shape: "any" as const };
    return { shape: "map", name, values };
  }
  const required = new Set(js.required ?? []);
  const known = entries.map(([key, p]): NestedProperty => {
    const doc = typeof p === "object" ? p.description : undefined;
    if (!doc) throw new Error(`${where}.${key}: a key of an object needs a description (.meta({ description }))`);
    return { name: key, doc, type: typeOf(p, `${where}.${key}`), required: required.has(key) };
  });
  const [kind, ...path] = where.replaceAll("[]", "").split(".");
  const doc = js.description ?? `The \`${path.join(".")}\` of ${/^[AEIOU]/.test(kind ?? "") ? "an" : "a"} ${kind}.`;
  return { shape: "object", name, doc, known, open: passesOthers(js.additionalProperties) };
}

/**
 * The variants of a union of objects (`z.union`, `z.discriminatedUnion`: one per action type), as
 * one object: every key of every variant, each documented by its variant and required only when
 * every variant requires it. The check still holds each value to its own variant.
 */
function mergedObjects(variants: readonly z.core.JSONSchema._JSONSchema[], js: z.core.JSONSchema.JSONSchema) {
  const objects = variants.filter(
    (v): v is z.core.JSONSchema.JSONSchema => typeof v === "object" && v.type === "object",
  );
  if (objects.length === 0 || objects.length !== variants.length) return undefined;
  const properties: Record<string, z.core.JSONSchema._JSONSchema> = {};
  for (const o of objects) for (const [key, p] of Object.entries(o.properties ?? {})) properties[key] ??= p;
  const required = Object.keys(properties).filter((key) => objects.every((o) => o.required?.includes(key)));
  const open = objects.some((o) => passesOthers(o.additionalProperties));
  return {
    type: "object" as const,
    properties,
    required,
    ...(open ? { additionalProperties: {} } : {}),
    ...(js.description ? { description: js.description } : {}),
  };
}

/** The language-independent type of one JSON Schema (as zod writes it for an input property). */
export function typeOf(js: z.core.JSONSchema._JSONSchema, where: string): TypeRef {
  if (typeof js === "boolean" || Object.keys(js).filter((k) => k !== "description").length === 0)
    return { shape: "any" };
  if (js.enum) return enumNamed(js.enum, where);
  const union = js.anyOf ?? js.oneOf;
  if (union && js.type === undefined) {
    const merged = mergedObjects(union, js);
    if (merged) return objectOf(merged, where);
    throw new Error(`${where}: a union that is not of objects has no schema type`);
  }
  switch (js.type) {
    case "string":
    case "integer":
    case "number":
    case "boolean":
      return { shape: js.type };
    case "array": {
      if (js.items === undefined || Array.isArray(js.items))
        throw new Error(`${where}: a tuple or an array without items has no schema type`);
      return { shape: "array", items: typeOf(js.items, `${where}[]`) };
    }
    case "object":
      return objectOf(js, where);
    default:
      throw new Error(`${where}: no schema type for ${JSON.stringify(js)}`);
  }
}

/**
 * Enums widened to string, as a live value may hold values this release does not know. A nested
 * object keeps its type: the schema names one type for its input and its output (Pulumi's SDKs
 * make both, `AgentLlmFallbackArgs` and `AgentLlmFallback`, from it), and every SDK reads a string
 * of an enum type whatever its value.
 */
function widen(t: TypeRef): TypeRef {
  if (t.shape === "enum") return { shape: "string" };
  if (t.shape === "array") return { shape: "array", items: widen(t.items) };
  return t;
}

/** Describes a kind from its declaration. */
export function describeKind(def: KindInfo): KindDescription {
  const inputSchema = z.toJSONSchema(def.input, { io: "input", unrepresentable: "throw" });
  // With io "output", a property with a default is required: its deployed value always exists.
  const deployed = new Set(z.toJSONSchema(def.input, { io: "output", unrepresentable: "throw" }).required ?? []);
  const required = new Set(inputSchema.required ?? []);
  const inputs = Object.entries(def.fields).map(([name, f]): PropertyDescription => {
    const js = inputSchema.properties?.[name];
    if (js === undefined) throw new Error(`${def.kind}.${name}: declared in fields but not in the input schema`);
    const type = typeOf(js, `${def.kind}.${name}`);
    const dflt = typeof js === "object" ? js.default : undefined;
    // Left unset, the service assigns one: its output is never undefined.
    const assigned = f.unset === "service-assigns";
    return {
      name,
      doc: f.doc,
      ...(f.deprecated ? { deprecated: f.deprecated } : {}),
      input: {
        type,
        required: required.has(name),
        ...(typeof dflt === "string" || typeof dflt === "number" || typeof dflt === "boolean" ? { default: dflt } : {}),
        ...(f.secret ? { secret: true } : {}),
        ...(f.boundOnce ? { boundOnce: true } : {}),
      },
      output: { type: widen(type), required: deployed.has(name) || assigned, secret: f.secret === true },
      replaces: f.change === "replaces",
      reported: assigned,
    };
  });
  const outputs = Object.entries(def.outputs).map(
    ([name, o]): PropertyDescription => ({
      name,
      doc: o.doc,
      output: { type: { shape: o.type }, required: o.optional !== true, secret: o.secret === true },
      replaces: false,
      reported: true,
    }),
  );
  return {
    kind: def.kind,
    doc: def.doc,
    ...examplesOf(def.kind),
    ...(def.importId ? { importId: def.importId } : {}),
    ...(def.adopt ? { adopt: def.adopt } : {}),
    ...(def.extensionReads ? { extensionReads: def.collection } : {}),
    properties: [...inputs, ...outputs],
    deleteBeforeReplace: def.deleteBeforeReplace === true,
  };
}
