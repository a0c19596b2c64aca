// Each entry section's zod schema, derived from its kind's declaration (the kind's input and its
// fields' flags), so a field added to a kind is in the fleet with nothing else to edit. An entry
// takes the kind's inputs under their own names, with the kind's own types and messages, except:
// - the adopting input (`voiceId`) is written `id`, and `was` keeps former keys;
// - a field that `refersTo` another collection names its entry by key (or an existing UUID), so
//   it is any non-empty name here (./check.ts resolves it against the fleet's keys);
// - a default is not filled in (the fleet is given back as written; the kind fills it at preview);
// - a `secret` field may be left out of the document (the kind names it at preview when needed);
// - an E.164 number written unquoted in YAML (an integer) is taken back as the string meant.
// Every object is strict (an unknown key is a typo until proven otherwise). No message here repeats
// a value: any of them may be a secret.
import { z } from "zod";
import { E164Schema, UuidSchema } from "../schemas/common.js";
import { COLLECTION_WORDS } from "../resources/kinds/collection-words.js";
import { VOICE_BASE_NEEDS } from "../resources/kinds/voice.js";
import type { KindInfo } from "../resources/kit/kind.js";

/** A key of the fleet: it becomes part of a resource name, so it keeps to URN-safe characters. */
export const FleetKeySchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, {
  error: "a name must be letters, digits, '-', '_' or '.' (at most 63), starting with a letter or digit",
});

/**
 * YAML and `pulumi config set --path` read an unquoted +15551234567 or 415 as an integer; the
 * digits are unambiguous (E.164 never starts with 0), so take them back as the string meant.
 */
export const digits = (plus: string) => (v: unknown) =>
  typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? `${plus}${v}` : v;

/** Former keys: one, or a list (read as a list). */
export const was = z
  .union([FleetKeySchema, z.array(FleetKeySchema)])
  .transform((v) => (typeof v === "string" ? [v] : v))
  .optional();

/** What every entry may say besides its kind's fields. */
const entry = { id: UuidSchema.optional(), was };

/** "a voice", "an action": how a refusal names what a reference must name. */
const withArticle = (noun: string) => `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`;

/** A kind's input as the fleet writes it, at any depth: defaults left to the kind, numbers taken back. */
function asWritten(schema: z.core.$ZodType): z.ZodType {
  if (schema === E164Schema) return z.preprocess(digits("+"), E164Schema);
  if (schema instanceof z.ZodDefault) return asWritten(schema.unwrap()).optional();
  if (schema instanceof z.ZodOptional) return asWritten(schema.unwrap()).optional();
  if (schema instanceof z.ZodArray) return schema.clone({ ...schema.def, element: asWritten(schema.element) });
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, asWritten(v)]));
    return schema.clone({ ...schema.def, shape });
  }
  if (schema instanceof z.ZodType) return schema;
  throw new Error("a kind's input is built with zod's classic API (z.string(), z.object()...)");
}

/** Whether a kind's input is a list (after its default and optionality). */
function isList(schema: z.core.$ZodType): boolean {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) return isList(schema.unwrap());
  return schema instanceof z.ZodArray;
}

/** Whether a kind's input may be left out as the kind takes it (optional, or with a default). */
const mayBeLeftOut = (schema: z.core.$ZodType) => schema instanceof z.ZodOptional || schema instanceof z.ZodDefault;

/** The collection a field refers to, as the fleet's section and as people say one of it. */
function referenceOf(collection: string): { section: string; noun: string } | undefined {
  const words = Object.entries(COLLECTION_WORDS).find(([name]) => name === collection)?.[1];
  return words && { section: words.section, noun: words.singular };
}

/** One field of a kind as an entry takes it. */
function fieldSchema(info: KindInfo, name: string, schema: z.core.$ZodType): z.ZodType {
  const f = info.fields[name];
  const refers = f?.refersTo === undefined ? undefined : referenceOf(f.refersTo);
  if (refers) {
    const one = z.string().min(1, { error: `must name ${withArticle(refers.noun)}` });
    const value = isList(schema) ? z.array(one) : one;
    return mayBeLeftOut(schema) ? value.optional() : value;
  }
  const written = asWritten(schema);
  return f?.secret && !(written instanceof z.ZodOptional) ? written.optional() : written;
}

/** The fields of a kind an entry takes, in the kind's order: every input but the adopting one. */
export function entryFields(info: KindInfo): string[] {
  return Object.keys(info.input.shape).filter((name) => name !== info.adopt);
}

/** The schema of one entry of the section of `info`'s kind. */
export function entrySchema(info: KindInfo): z.ZodObject {
  const shape = Object.fromEntries(
    entryFields(info).flatMap((name) => {
      const schema = info.input.shape[name];
      return schema === undefined ? [] : [[name, fieldSchema(info, name, schema)]];
    }),
  );
  return z.strictObject({ ...entry, ...shape });
}

/**
 * Rules the fleet keeps besides the kind's types: a voice of voice_base (the 2023 shape, the
 * type when none is set) needs its fields here too, as it always did.
 */
export function entryRules(kind: string, value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (kind !== "Voice" || (value.type ?? "voice_base") !== "voice_base") return;
  for (const field of VOICE_BASE_NEEDS)
    if (value[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message: "required" });
}
