import { z } from "zod";
import { E164Schema, UuidSchema } from "./common.js";
import { PromptCreateSchema } from "./prompt.js";
import { WebhookEventSchema, WebhookMethodSchema, WebhookWriteSchema } from "./webhook.js";
import { VectorDatabaseCreateSchema } from "./vector-database.js";
import {
  ENDPOINTING_SENSITIVITIES,
  INTERRUPT_SENSITIVITIES,
  IVR_NAVIGATION_MODES,
  LANGUAGES,
  LLM_FALLBACK_PROVIDERS,
  ON_NO_HUMAN_ANSWER,
  PLAY_HT_QUALITIES,
  PLAY_HT_VERSIONS,
  RIME_MODEL_IDS,
  TELEPHONY_PROVIDERS,
} from "./values.js";

// Request bodies of the current API (2024, as its SDK 0.0.48 types them; docs/contract-current.md)
// where they differ from the interface's. The client sends these when it talks to that generation;
// the emulator's `--api 2024` checks requests with them.

const azure = z.object({
  type: z.literal("voice_azure"),
  voice_name: z.string().min(1),
  pitch: z.number().int().optional(),
  rate: z.number().int().optional(),
});
// Each type's optional tuning fields are the 0.0.48 params' (ElevenLabsVoiceParams, PlayHtVoiceParams,
// RimeVoiceParams); the service keeps and returns them.
const elevenLabs = z.object({
  type: z.literal("voice_eleven_labs"),
  voice_id: z.string().min(1),
  api_key: z.string().min(1).optional(),
  stability: z.number().min(0).max(1).optional(),
  similarity_boost: z.number().min(0).max(1).optional(),
  optimize_streaming_latency: z.number().int().min(0).optional(),
  model_id: z.string().min(1).optional(),
  experimental_input_streaming: z.boolean().optional(),
});
const playHt = z.object({
  type: z.literal("voice_play_ht"),
  voice_id: z.string().min(1),
  api_user_id: z.string().min(1).optional(),
  api_key: z.string().min(1).optional(),
  version: z.enum(PLAY_HT_VERSIONS).optional(),
  speed: z.number().positive().optional(),
  quality: z.enum(PLAY_HT_QUALITIES).optional(),
  temperature: z.number().min(0).optional(),
  top_p: z.number().min(0).max(1).optional(),
  text_guidance: z.number().min(0).optional(),
  voice_guidance: z.number().min(0).optional(),
  experimental_remove_silence: z.boolean().optional(),
});
const rime = z.object({
  type: z.literal("voice_rime"),
  speaker: z.string().min(1),
  speed_alpha: z.number().positive().optional(),
  model_id: z.enum(RIME_MODEL_IDS).optional(),
});
const vocode = z.object({ type: z.literal("voice_vocode"), voice_id: z.literal("joe").default("joe") });

/**
 * A voice in the current API: one of five types, each with its own fields. There is no
 * voice_base, and no field of one type is accepted on another.
 */
export const VoiceWrite2024Schema = z.discriminatedUnion("type", [azure, elevenLabs, playHt, rime, vocode]);
/** A voice body of the current API. */
export type VoiceWrite2024 = z.input<typeof VoiceWrite2024Schema>;
/**
 * Body of voices/update in the current API: the type and any of its fields (0.0.48's
 * `*VoiceUpdateParams`, every field optional). A field left out stays; a voice changing type needs
 * that type's required field (the emulator says which, 422).
 */
export const VoiceUpdate2024Schema = z.discriminatedUnion("type", [
  azure.partial().required({ type: true }),
  elevenLabs.partial().required({ type: true }),
  playHt.partial().required({ type: true }),
  rime.partial().required({ type: true }),
  vocode.partial().required({ type: true }),
]);
/** A voices/update body of the current API. */
export type VoiceUpdate2024 = z.input<typeof VoiceUpdate2024Schema>;
/** The five voice types of the current API. */
export const VOICE_TYPES_2024 = [
  "voice_azure",
  "voice_eleven_labs",
  "voice_play_ht",
  "voice_rime",
  "voice_vocode",
] as const;

/** A prompt sent inline: the current API takes text or `{content}`; the provider sends `{content}`. */
export const PromptParamsSchema = z.object({ content: z.string().min(1) });
/**
 * An agent's prompt: a string (the id of a prompt object of the team's, or else the text itself)
 * or the prompt inline (`PromptParams`: content, fields to collect, context endpoint, template).
 */
const prompt = z.union([z.string().min(1), PromptCreateSchema]);

/** An agent's fallback LLM, used when its main one fails. */
export const LlmFallbackSchema = z.object({
  provider: z.enum(LLM_FALLBACK_PROVIDERS),
  model_name: z.string().min(1),
});

/** The OpenAI account connection an agent uses: its id, or the connection object (its id is taken). */
const openAiConnectionRef = z.union([UuidSchema, z.looseObject({ id: UuidSchema })]);

/**
 * The agent's fields the current API has and the interface lacks (AgentParams of SDK 0.0.48), all
 * optional. Enumerations are checked against the known values here; reads keep unknown ones.
 */
export const AgentFields2024Schema = z.object({
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
  /** Words Deepgram should favour, each with its boost. */
  deepgram_keywords: z.record(z.string().min(1), z.number()).optional(),
  /** A vector database by id, or given inline (the service makes it). */
  vector_database: z.union([UuidSchema, VectorDatabaseCreateSchema]).optional(),
  openai_account_connection: openAiConnectionRef.optional(),
});
/** The current API's own agent fields, as sent. */
export type AgentFields2024 = z.input<typeof AgentFields2024Schema>;

/** Body of agents/create in the current API: related objects by id, the prompt inline or by id. */
export const AgentCreate2024Schema = AgentFields2024Schema.extend({
  prompt,
  voice: UuidSchema,
  actions: z.array(UuidSchema).default([]),
  initial_message: z.string().optional(),
  webhook: UuidSchema.optional(),
  /** Set at creation only: AgentUpdateParams of 0.0.48 has no llm_temperature. */
  llm_temperature: z.number().min(0).max(2).optional(),
});
/** Body of agents/create in the current API. */
export type AgentCreate2024 = z.input<typeof AgentCreate2024Schema>;

/**
 * Body of agents/update in the current API: a field is sent or left out, never null (its types
 * have no None). An opening message is cleared with ""; a webhook cannot be removed at all.
 */
export const AgentUpdate2024Schema = AgentFields2024Schema.extend({
  prompt: prompt.optional(),
  voice: UuidSchema.optional(),
  actions: z.array(UuidSchema).optional(),
  initial_message: z.string().optional(),
  webhook: UuidSchema.optional(),
});
/** Body of agents/update in the current API. */
export type AgentUpdate2024 = z.input<typeof AgentUpdate2024Schema>;

/** Context values a number or a call passes to its agent's context endpoint. */
const context = z.record(z.string().min(1), z.string());

/**
 * Body of numbers/update in the current API: each field optional (left out stays). No null, so a
 * number cannot be unbound. The SDK also allows an inline agent; the emulator takes an id.
 */
export const PhoneNumberUpdate2024Schema = z.object({
  inbound_agent: UuidSchema.optional(),
  outbound_only: z.boolean().optional(),
  example_context: context.optional(),
  label: z.string().optional(),
});
/** Body of numbers/update in the current API. */
export type PhoneNumberUpdate2024 = z.infer<typeof PhoneNumberUpdate2024Schema>;

/** Body of numbers/buy in the current API: which provider's number, on which account connection. */
export const PhoneNumberBuy2024Schema = z
  .object({
    area_code: z
      .string()
      .regex(/^[2-9]\d{2}$/, { error: "must be a 3-digit area code" })
      .optional(),
    telephony_provider: z.enum(TELEPHONY_PROVIDERS).optional(),
    /** A Twilio account connection to buy the number on (the team's own account). */
    telephony_account_connection: UuidSchema.optional(),
    inbound_agent: UuidSchema.optional(),
  })
  .nullish();
/** Body of numbers/buy in the current API. */
export type PhoneNumberBuy2024 = z.infer<typeof PhoneNumberBuy2024Schema>;

/**
 * Body of numbers/link in the current API: a number of the team's own Twilio account, brought in
 * through its account connection. Only the current API has this route.
 */
export const PhoneNumberLinkSchema = z.object({
  phone_number: E164Schema,
  telephony_account_connection: UuidSchema,
  outbound_only: z.boolean().optional(),
  inbound_agent: UuidSchema.optional(),
});
/** Body of numbers/link. */
export type PhoneNumberLink = z.infer<typeof PhoneNumberLinkSchema>;

/** Body of calls/create in the current API: the interface's three fields and the call's options. */
export const CallCreate2024Schema = z.object({
  from_number: E164Schema,
  to_number: E164Schema,
  agent: UuidSchema,
  on_no_human_answer: z.enum(ON_NO_HUMAN_ANSWER).optional(),
  run_do_not_call_detection: z.boolean().optional(),
  hipaa_compliant: z.boolean().optional(),
  context: z.record(z.string().min(1), z.string().nullable()).optional(),
  telephony_params: z.record(z.string().min(1), z.string().nullable()).optional(),
});
/** Body of calls/create in the current API. */
export type CallCreate2024 = z.infer<typeof CallCreate2024Schema>;

/**
 * Body of webhooks/create in the current API (0.0.48 `WebhookParams`): the method is optional, and
 * a webhook made without one is held with none (null), which the service delivers by POST.
 */
export const WebhookCreate2024Schema = WebhookWriteSchema.extend({ method: WebhookMethodSchema.optional() });
/** Body of webhooks/create in the current API. */
export type WebhookCreate2024 = z.infer<typeof WebhookCreate2024Schema>;

/**
 * Body of webhooks/update in the current API: every field optional (WebhookUpdateParams of 0.0.48);
 * a field left out stays as it was.
 */
export const WebhookUpdate2024Schema = z.object({
  url: WebhookWriteSchema.shape.url.optional(),
  method: WebhookMethodSchema.optional(),
  subscriptions: z.array(WebhookEventSchema).min(1).optional(),
});
/** Body of webhooks/update in the current API. */
export type WebhookUpdate2024 = z.infer<typeof WebhookUpdate2024Schema>;
