import { z } from "zod";
import { E164Schema, UuidSchema } from "./common.js";
import { RefSchema } from "./read.js";
import { CALL_STATUSES } from "./values.js";

/** The form of an allowed destination: an E.164 number, or a prefix ending in `*` ("+1555*"). */
export const DESTINATION_PATTERN = /^\+[1-9]\d{0,14}\*?$/;

/** An allowed destination (a Call's `allowedDestinations`, the policy pack's `allowedNumbers`). */
export const DestinationPatternSchema = z
  .string()
  .regex(DESTINATION_PATTERN, { error: "must be an E.164 number, or a prefix ending in *" });

/** True when `to` is one of the allowed numbers or starts with an allowed `prefix*`. */
export function isAllowedDestination(to: string, allowed: readonly string[]): boolean {
  return allowed.some((a) => (a.endsWith("*") ? to.startsWith(a.slice(0, -1)) : to === a));
}

/** A known call status (docs/decisions.md §1). */
export const CallStatusSchema = z.enum(CALL_STATUSES);

/** A call as the service returns it; the current API may leave status and recording_available null. */
export const CallSchema = z.object({
  id: UuidSchema,
  user_id: z.string(),
  status: z.string().nullish(),
  error_message: z.string().nullish(),
  recording_available: z.boolean().nullish(),
  transcript: z.string().nullish(),
  to_number: z.string(),
  from_number: z.string(),
  agent: RefSchema,
});
/** A call. */
export type Call = z.infer<typeof CallSchema>;

/** Body of calls/create. */
export const CallCreateSchema = z.object({
  from_number: E164Schema,
  to_number: E164Schema,
  agent: UuidSchema,
});
/** Body of calls/create. */
export type CallCreate = z.infer<typeof CallCreateSchema>;
