// The fleet's shape as zod: what a stack file's `fleet` value may hold. Each entry section's schema
// is its kind's, derived from the kind's declaration (./entries.ts); a line, which makes one of three
// kinds, is declared here. Every object is strict (an unknown key is a typo until proven otherwise),
// and no message repeats a value: any of them may be a secret. References between entries are
// checked in ./check.ts, where all the keys are known.
import { z } from "zod";
import { E164Schema } from "../schemas/common.js";
import { digits, entryFields, entryRules, entrySchema, FleetKeySchema, was } from "./entries.js";
import { ENTRY_SECTIONS, type EntrySection, kindInfoOf } from "./sections.js";
import type { FleetSpec } from "./spec.js";

export { FleetKeySchema } from "./entries.js";

const LineSchema = z
  .strictObject({
    agent: z.string().min(1, { error: "must name an agent" }).optional(),
    number: z.preprocess(digits("+"), E164Schema).optional(),
    link: z
      .strictObject({
        connection: z.string().min(1, { error: "must name an account connection" }),
        outboundOnly: z.boolean().optional(),
      })
      .optional(),
    buy: z
      .strictObject({
        areaCode: z.preprocess(digits(""), z.string().regex(/^\d{3}$/, { error: "must be 3 digits" })).optional(),
      })
      .optional(),
    protect: z.boolean().optional(),
    was,
  })
  .superRefine((line, ctx) => {
    if (line.link !== undefined && line.buy !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["link"],
        message: "a linked number is one of your Twilio account's: give `number` with `link`, not `buy`",
      });
    }
    if ((line.number === undefined) === (line.buy === undefined)) {
      ctx.addIssue({
        code: "custom",
        message: "give either `number` (one the account owns) or `buy` (one to buy), not both or neither",
      });
    }
    // A linked number may have no agent (outbound only, or linked for later): it is a LinkedNumber,
    // whose inbound agent is optional. A binding or a purchase is a PhoneNumber, which needs one.
    if (line.agent === undefined && line.link === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["agent"],
        message: "required: the agent that answers the line (only a linked number, `link`, may have none)",
      });
    }
    if (line.agent !== undefined && line.link?.outboundOnly === true) {
      ctx.addIssue({
        code: "custom",
        path: ["agent"],
        message:
          "an outbound-only number (`link.outboundOnly: true`) has no agent answering it: remove `agent`, or set `link.outboundOnly` to false",
      });
    }
    if (line.protect !== undefined && line.buy === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["protect"],
        message: "only a bought number (`buy`) can be protected; a binding never cancels its number",
      });
    }
  });

/** A kind's entries by key; an empty section (`voices:` with nothing under it) is null in YAML. */
const section = <T extends z.ZodType>(value: T) =>
  z.preprocess((v) => v ?? undefined, z.record(FleetKeySchema, value).optional());

/** Each entry section's entry schema, from its kind. */
const entrySchemas = Object.fromEntries(
  ENTRY_SECTIONS.map((s) => {
    const info = kindInfoOf(s);
    return [s, entrySchema(info).superRefine((v, ctx) => entryRules(info.kind, v, ctx))];
  }),
);

/** The sections of a fleet, in the order resources are declared (what others refer to first). */
export const FLEET_SECTIONS: readonly (EntrySection | "lines")[] = [...ENTRY_SECTIONS, "lines"];

const FleetObject = z.strictObject({
  ...Object.fromEntries(ENTRY_SECTIONS.map((s) => [s, section(entrySchemas[s] ?? z.never())])),
  lines: section(LineSchema),
});

/**
 * The fleet value of a stack file: voices, actions, webhooks, the current API's objects, agents and
 * lines, each by key. Its output is the public type (./spec.ts), which `npm run gen` writes from the
 * same kinds (codegen/fleet-spec.ts): the schema is built at run time from the registry, so the
 * compiler cannot infer it, and test/fleet/spec.test.ts holds the two to each other.
 */
export const FleetSchema: z.ZodType<FleetSpec> = FleetObject as z.ZodType<unknown> as z.ZodType<FleetSpec>;

/** The keys each object of the fleet accepts, for the message that refuses an unknown one. */
export const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  fleet: Object.keys(FleetObject.shape),
  ...Object.fromEntries(ENTRY_SECTIONS.map((s) => [s, ["id", "was", ...entryFields(kindInfoOf(s))]])),
  lines: Object.keys(LineSchema.shape),
  buy: ["areaCode"],
  link: ["connection", "outboundOnly"],
};
