import { z } from "zod";
import { UuidSchema } from "./common.js";
import { LlmFallbackSchema } from "./current.js";
import { openEnum } from "./open-enum.js";
import { RefListSchema, RefSchema } from "./read.js";
import {
  ENDPOINTING_SENSITIVITIES,
  INTERRUPT_SENSITIVITIES,
  IVR_NAVIGATION_MODES,
  LANGUAGES,
  LLM_FALLBACK_PROVIDERS,
} from "./values.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A reference the current API may give by id, embedded, or (a list page's vector database given
 * inline) as params without an id: read as its id, undefined when it has none.
 */
const OptionalRefSchema = z.codec(
  z.union([z.string(), z.looseObject({ id: z.string().nullish() })]),
  z.looseObject({ id: z.string().optional() }),
  {
    decode: (ref) => (typeof ref === "string" ? { id: ref } : { ...ref, id: ref.id ?? undefined }),
    encode: (ref) => ref,
  },
);

/**
 * The agent's fields only the current API (2024) has, as read from either generation (the
 * interface sends none). Enumerations are open: a value the service added is kept and shows as
 * drift, never a parse failure.
 */
const agentCurrentReadFields = {
  name: z.string().nullish(),
  language: openEnum(LANGUAGES).nullish(),
  interrupt_sensitivity: openEnum(INTERRUPT_SENSITIVITIES).nullish(),
  endpointing_sensitivity: openEnum(ENDPOINTING_SENSITIVITIES).nullish(),
  ivr_navigation_mode: openEnum(IVR_NAVIGATION_MODES).nullish(),
  conversation_speed: z.number().nullish(),
  initial_message_delay: z.number().nullish(),
  idle_time_seconds: z.number().nullish(),
  ask_if_human_present_on_idle: z.boolean().nullish(),
  noise_suppression: z.boolean().nullish(),
  run_do_not_call_detection: z.boolean().nullish(),
  context_endpoint: z.string().nullish(),
  llm_temperature: z.number().nullish(),
  openai_model_name_override: z.string().nullish(),
  llm_fallback: z.looseObject({ provider: openEnum(LLM_FALLBACK_PROVIDERS), model_name: z.string() }).nullish(),
  deepgram_keywords: z.record(z.string(), z.number().nullable()).nullish(),
  vector_database: OptionalRefSchema.nullish(),
  openai_account_connection: OptionalRefSchema.nullish(),
};

const agentReadFields = {
  id: UuidSchema,
  user_id: z.string(),
  actions: RefListSchema,
  voice: RefSchema,
  initial_message: z.string().nullish(),
  webhook: RefSchema.nullish(),
  ...agentCurrentReadFields,
};

const Embedded = z.looseObject({ id: z.string() });
const MaybeEmbedded = z.looseObject({ id: z.string().optional() });
/** The same fields as read: references decoded to objects (no codec, so the agent's codec encodes them as they are). */
const agentDecodedFields = {
  ...agentReadFields,
  actions: z.array(Embedded),
  voice: Embedded,
  webhook: Embedded.nullish(),
  vector_database: MaybeEmbedded.nullish(),
  openai_account_connection: MaybeEmbedded.nullish(),
};

/** An agent's prompt as either generation sends it: text, a prompt object's id (a 2024 list item), or an object. */
const PromptWireSchema = z.union([
  z.string(),
  z.looseObject({ id: z.string().nullish(), content: z.string().nullish() }),
]);

/**
 * An agent as the service returns it, in either generation: related objects embedded (the
 * interface) or by id (2024's lists), the prompt as text, by id or as a prompt object; read as one
 * shape: `prompt` its text, `prompt_id` the prompt object's id where the answer shows one (every
 * full 2024 agent; a 2024 list item only when the agent refers to one of the team's prompts).
 */
export const AgentSchema = z.codec(
  z.object({ ...agentReadFields, prompt: PromptWireSchema }),
  z.object({ ...agentDecodedFields, prompt: z.string(), prompt_id: z.string().optional() }),
  {
    decode: ({ prompt, ...rest }) => {
      if (typeof prompt !== "string") {
        return { ...rest, prompt: prompt.content ?? "", ...(prompt.id ? { prompt_id: prompt.id } : {}) };
      }
      // A 2024 list item names a prompt object by its id; the interface sends the text.
      return { ...rest, prompt, ...(UUID.test(prompt) ? { prompt_id: prompt } : {}) };
    },
    encode: ({ prompt_id: _id, ...rest }) => rest,
  },
);
/** An agent. */
export type Agent = z.output<typeof AgentSchema>;

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

/**
 * The agent's fields only the current API (2024) takes, as the provider asks for them: references
 * by id only (0.0.48 also takes them inline; the provider declares them as their own resources).
 * The client sends them to the current API and refuses them, before sending, to the interface.
 */
export const AgentCurrentWriteSchema = z.object({
  name: z.string().min(1).optional(),
  language: z.enum(LANGUAGES).optional(),
  interrupt_sensitivity: z.enum(INTERRUPT_SENSITIVITIES).optional(),
  endpointing_sensitivity: z.enum(ENDPOINTING_SENSITIVITIES).optional(),
  ivr_navigation_mode: z.enum(IVR_NAVIGATION_MODES).optional(),
  conversation_speed: z.number().positive().optional(),
  initial_message_delay: z.number().min(0).optional(),
  idle_time_seconds: z.number().int().min(1).optional(),
  ask_if_human_present_on_idle: z.boolean().optional(),
  noise_suppression: z.boolean().optional(),
  run_do_not_call_detection: z.boolean().optional(),
  context_endpoint: z.url().optional(),
  openai_model_name_override: z.string().min(1).optional(),
  llm_fallback: LlmFallbackSchema.optional(),
  deepgram_keywords: z.record(z.string().min(1), z.number()).optional(),
  vector_database: UuidSchema.optional(),
  openai_account_connection: UuidSchema.optional(),
  /** A prompt object of the team's, by id: sent as the current API's `prompt`, instead of the text. */
  prompt_id: UuidSchema.optional(),
});

/**
 * An agent as the provider asks for it on create, one shape for both generations: the interface's
 * fields, the prompt as text (`prompt`) or a prompt object's id (`prompt_id`, exactly one), and the
 * current API's own fields. wire.ts turns it into the generation's body.
 */
export const AgentWriteSchema = AgentCurrentWriteSchema.extend({
  prompt: z.string().min(1).optional(),
  voice: UuidSchema,
  actions: z.array(UuidSchema).default([]),
  initial_message: z.string().optional(),
  webhook: UuidSchema.optional(),
  /** Taken at creation only: 0.0.48's AgentUpdateParams has no llm_temperature. */
  llm_temperature: z.number().min(0).max(2).optional(),
});
/** An agent as the provider asks for it on create. */
export type AgentWrite = z.input<typeof AgentWriteSchema>;

/** An agents/update as the provider asks for it: the interface's update and the current API's own fields. */
export const AgentUpdateWriteSchema = AgentCurrentWriteSchema.extend(AgentUpdateSchema.shape);
/** An agents/update as the provider asks for it. */
export type AgentUpdateWrite = z.input<typeof AgentUpdateWriteSchema>;

/** The wire names of the fields only the current API takes, for the message that refuses them on the interface. */
export const AGENT_CURRENT_FIELDS = [...Object.keys(AgentCurrentWriteSchema.shape), "llm_temperature"] as const;
