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
  /** The outputs the schema marks secret (a call's transcript): stored as secrets on every path. */
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
    out.set(token, {
      decided: properties.filter(([name]) => !(name in inputs) || required.includes(name)).map(([name]) => name),
      secrets: properties.filter(([, p]) => isRecord(p) && p.secret === true).map(([name]) => name),
    });
  }
  return out;
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
