import type { z } from "zod";
import { JsonSchema, type Json } from "../../schemas/json.js";
import { outputsOf } from "./derive.js";
import type { KindDef } from "./kind.js";
import type { Pulled, PulledRef } from "./pull.js";

// `voiceagent pull` declares a live object as an import reads it: each field's own read (nothing
// recorded), so a field added to a kind is pulled without another word. What differs is said on
// the field: one that names other objects by id (`refersTo`) becomes a reference to them.

/**
 * The arguments that adopt `live` as it is: the kind's adopt input (its id), then every field the
 * object has a value for, in declaration order; a field that `refersTo` a collection becomes a
 * reference (an empty list none).
 */
export function pulledOf<S extends z.ZodRawShape, R extends { id: string }, W>(def: KindDef<S, R, W>, live: R): Pulled {
  const read = outputsOf(def, live, {});
  const args: Record<string, Json> = def.adopt ? { [def.adopt]: live.id } : {};
  const refs: PulledRef[] = [];
  for (const [key, f] of Object.entries<{ refersTo?: PulledRef["collection"] }>(def.fields)) {
    const value = read[key];
    if (key === def.adopt || value === undefined || key in def.outputs) continue;
    if (!f.refersTo) {
      args[key] = JsonSchema.parse(value);
      continue;
    }
    const ids = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string");
    if (ids.length) refs.push({ key, collection: f.refersTo, ids, list: Array.isArray(value) });
  }
  return { args, refs };
}
