import { z } from "zod";
import { UuidSchema } from "./common.js";

// Prompts of the current API (2024, SDK 0.0.48): a prompt is an object of its own that agents refer
// to by id or carry inline. Only the current API has them (docs/contract-current.md).

/** A field the agent collects during a call; the service knows one type, an email address. */
export const CollectFieldSchema = z.object({
  field_type: z.literal("field_type_email").default("field_type_email"),
  label: z.string().min(1),
  name: z.string().min(1),
  description: z.string().optional(),
});
/** A field to collect, as sent. */
export type CollectField = z.input<typeof CollectFieldSchema>;

/** A field to collect, as read: an unknown field type is kept (drift), never a parse failure. */
export const CollectFieldReadSchema = z.looseObject({
  field_type: z.string().nullish(),
  label: z.string(),
  name: z.string(),
  description: z.string().nullish(),
});

/** A prompt template, as embedded in a prompt the service returns. */
export const PromptTemplateSchema = z.looseObject({
  id: z.string(),
  user_id: z.string(),
  label: z.string().nullish(),
  required_context_keys: z.array(z.string()),
});

/** Body of prompts/create, and a prompt given inline to an agent (`PromptParams`). */
export const PromptCreateSchema = z.object({
  content: z.string().min(1).optional(),
  collect_fields: z.array(CollectFieldSchema).optional(),
  context_endpoint: z.url().optional(),
  /** A template by id (the SDK also allows the embedded template object, whose id is taken). */
  prompt_template: z.union([UuidSchema, PromptTemplateSchema]).optional(),
});
/** Body of prompts/create, as sent. */
export type PromptCreate = z.input<typeof PromptCreateSchema>;

/** Body of prompts/update: fields sent replace stored ones, fields left out stay. */
export const PromptUpdateSchema = PromptCreateSchema;
/** Body of prompts/update, as sent. */
export type PromptUpdate = z.input<typeof PromptUpdateSchema>;

/**
 * A prompt as the service returns it: the full object (`Prompt`) embeds its template, the one in
 * a list page (`NormalizedPrompt`) gives the template's id; both read here.
 */
export const PromptSchema = z.looseObject({
  id: z.string(),
  user_id: z.string(),
  content: z.string().nullish(),
  collect_fields: z.array(CollectFieldReadSchema).nullish(),
  context_endpoint: z.string().nullish(),
  prompt_template: z.union([z.string(), PromptTemplateSchema]).nullish(),
});
/** A prompt. */
export type Prompt = z.infer<typeof PromptSchema>;
