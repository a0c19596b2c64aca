import type { Props } from "../resources/kit/kind.js";
import { UNKNOWN } from "../resources/kit/unknown.js";

/**
 * Each resource's properties by type token, from the package schema: what a preview of a create
 * reports as unknown (the service decides them: ids, owners, a call's status) instead of leaving
 * them undefined, so a program's preview sees `Output<unknown>`, not a missing value.
 */
export function schemaProperties(schemaText: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const schema: unknown = JSON.parse(schemaText);
  if (!schema || typeof schema !== "object" || !("resources" in schema)) return out;
  const resources = schema.resources;
  if (!resources || typeof resources !== "object") return out;
  for (const [token, res] of Object.entries(resources)) {
    if (res && typeof res === "object" && "properties" in res && res.properties && typeof res.properties === "object") {
      out.set(token, Object.keys(res.properties));
    }
  }
  return out;
}

/** What a preview of a create returns: the inputs, and every other property unknown. */
export function previewOutputs(inputs: Props, properties: readonly string[]): Props {
  const out: Props = { ...inputs };
  for (const p of properties) if (out[p] === undefined) out[p] = UNKNOWN;
  return out;
}
