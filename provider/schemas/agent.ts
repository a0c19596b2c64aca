import { z } from "zod";
import { UuidSchema } from "./common.js";
import { PromptReadSchema, RefListSchema, RefSchema } from "./read.js";

/**
 * An agent as the service returns it, in either generation: related objects embedded (the
 * interface) or by id (2024's lists), the prompt as text or as a prompt object; read as one shape.
 */
export const AgentSchema = z.object({
  id: UuidSchema,
  user_id: z.string(),
  prompt: PromptReadSchema,
  actions: RefListSchema,
  voice: RefSchema,
  initial_message: z.string().nullish(),
  webhook: RefSchema.nullish(),
});
/** An agent. */
export type Agent = z.infer<typeof AgentSchema>;

/** Body of agents/create: `prompt` and `voice` are required (docs/decisions.md §1); related objects by id. */
export const AgentCreateSchema = z.object({
  prompt: z.string().min(1),
  voice: UuidSchema,
  actions: z.array(UuidSchema).default([]),
  initial_message: z.string().optional(),
  webhook: UuidSchema.optional(),
});
/** Body of agents/create, as sent. */
export type AgentCreate = z.input<typeof AgentCreateSchema>;

/**
 * Body of agents/update: fields sent replace stored ones, fields omitted stay. `null` clears the
 * optional `initial_message` and `webhook`.
 */
export const AgentUpdateSchema = z.object({
  prompt: z.string().min(1).optional(),
  voice: UuidSchema.optional(),
  actions: z.array(UuidSchema).optional(),
  initial_message: z.string().nullable().optional(),
  webhook: UuidSchema.nullable().optional(),
});
/** Body of agents/update, as sent. */
export type AgentUpdate = z.input<typeof AgentUpdateSchema>;
