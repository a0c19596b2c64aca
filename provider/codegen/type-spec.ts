import { tokenOf } from "../identity.js";
import type { JsonObject } from "../schemas/json.js";
import type { TypeRef } from "./describe.js";

// A type as the package schema writes it, in a module of its own: the resources' schema
// (schema.ts) and the functions' (function-schema.ts) both use it, and schema.ts imports the
// functions' part, so it cannot live in either without an import cycle.

/** A type as the schema writes it. */
export function typeSpec(t: TypeRef): JsonObject {
  switch (t.shape) {
    case "any":
      return { $ref: "pulumi.json#/Any" };
    case "enum":
      return { type: "string", $ref: `#/types/${tokenOf(t.name)}` };
    case "array":
      return { type: "array", items: typeSpec(t.items) };
    case "map":
      return { type: "object", additionalProperties: typeSpec(t.values) };
    case "object":
    case "named":
      return { $ref: `#/types/${tokenOf(t.name)}` };
    default:
      return { type: t.shape };
  }
}
