import type { Props } from "../resources/kit/kind.js";
import { UNKNOWN } from "../resources/kit/unknown.js";

/** What the package schema says of one resource's outputs, for the plugin to act on. */
export interface SchemaOutputs {
  /**
   * The outputs the service decides: those that are no input (ids, owners, a call's status), and
   * the inputs it fills in when the program leaves them unset (the schema's `required` outputs,
   * e.g. the number a purchase buys). A preview of a create reports these as unknown.
   */
  decided: string[];
  /**
   * The outputs the schema marks secret (a call's transcript), as property paths at any depth
   * (`transcript`, `credentials.authToken`, `items[*].key`, `byName.*.key`; plugin/grpc.ts reads
   * them): stored as secrets on every path.
   */
  secrets: string[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Each resource's {@link SchemaOutputs} by type token, from the package schema. */
export function schemaOutputs(schemaText: string): Map<string, SchemaOutputs> {
  const out = new Map<string, SchemaOutputs>();
  const schema: unknown = JSON.parse(schemaText);
  if (!isRecord(schema) || !isRecord(schema.resources)) return out;
  for (const [token, res] of Object.entries(schema.resources)) {
    if (!isRecord(res) || !isRecord(res.properties)) continue;
    const inputs = isRecord(res.inputProperties) ? res.inputProperties : {};
    const required = Array.isArray(res.required) ? res.required : [];
    const properties = Object.entries(res.properties);
    const types = isRecord(schema.types) ? schema.types : {};
    out.set(token, {
      decided: properties.filter(([name]) => !(name in inputs) || required.includes(name)).map(([name]) => name),
      secrets: properties.flatMap(([name, p]) => secretPaths(p, types, new Set()).map((rest) => `${name}${rest}`)),
    });
  }
  return out;
}

/**
 * The paths below one property spec whose values are secret ("" for the spec itself): through the
 * schema's object types (`$ref: "#/types/..."`), array items (`[*]`) and map values (`.*`). A type
 * met again on the way down (a recursive type) is not walked twice.
 */
function secretPaths(spec: unknown, types: Record<string, unknown>, seen: ReadonlySet<string>): string[] {
  if (!isRecord(spec)) return [];
  if (spec.secret === true) return [""];
  const ref = typeof spec.$ref === "string" && spec.$ref.startsWith("#/types/") ? spec.$ref.slice(8) : undefined;
  if (ref !== undefined) {
    const type = types[ref];
    if (seen.has(ref) || !isRecord(type) || !isRecord(type.properties)) return [];
    const inner = new Set([...seen, ref]);
    return Object.entries(type.properties).flatMap(([name, p]) =>
      secretPaths(p, types, inner).map((rest) => `.${name}${rest}`),
    );
  }
  if (spec.type === "array") return secretPaths(spec.items, types, seen).map((rest) => `[*]${rest}`);
  if (spec.type === "object") return secretPaths(spec.additionalProperties, types, seen).map((rest) => `.*${rest}`);
  return [];
}

/**
 * What a preview of a create returns: the inputs, and each output the service decides unknown
 * when the inputs do not give it. An optional input left unset stays unset (a create records it
 * so), so a dependent previews `undefined`, not a value that turns out undefined.
 */
export function previewOutputs(inputs: Props, decided: readonly string[]): Props {
  const out: Props = { ...inputs };
  for (const p of decided) if (out[p] === undefined) out[p] = UNKNOWN;
  return out;
}
