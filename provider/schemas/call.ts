import { z } from "zod";
import { E164Schema, UuidSchema } from "./common.js";
import { AgentSchema } from "./agent.js";

/** Call states of the real service (DESIGN.md §2); the interface shows only not_started. */
export const CALL_STATUSES = ["not_started", "in_progress", "error", "ended"] as const;
/** A known call status. */
export const CallStatusSchema = z.enum(CALL_STATUSES);
/** A known call status. */
export type CallStatus = z.infer<typeof CallStatusSchema>;

/** A call as the service returns it. */
export const CallSchema = z.object({
  id: UuidSchema,
  user_id: UuidSchema,
  status: z.string(),
  error_message: z.string().nullish(),
  recording_available: z.boolean(),
  transcript: z.string().nullish(),
  to_number: z.string(),
  from_number: z.string(),
  agent: AgentSchema,
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
