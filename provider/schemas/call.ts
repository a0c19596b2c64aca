import { z } from "zod";
import { E164Schema, UuidSchema } from "./common.js";
import { RefSchema } from "./read.js";
import { CALL_STATUSES } from "./values.js";

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
