import { z } from "zod";
import { AccountConnectionSchema } from "./account-connection.js";
import { openEnum } from "./open-enum.js";
import { PromptSchema } from "./prompt.js";
import { VectorDatabaseSchema } from "./vector-database.js";
import {
  CALL_STATUSES,
  ENDPOINTING_SENSITIVITIES,
  INTERRUPT_SENSITIVITIES,
  IVR_NAVIGATION_MODES,
  LANGUAGES,
  LLM_FALLBACK_PROVIDERS,
  ON_NO_HUMAN_ANSWER,
  PLAY_HT_QUALITIES,
  PLAY_HT_VERSIONS,
  TELEPHONY_PROVIDERS,
} from "./values.js";

// Answers of the current API (2024) as the models of its SDK 0.0.48 require them: the full objects
// its get/create/update routes return (related objects embedded) and the items of its list pages
// (related objects by id). Loose objects (a field added on the server is kept), every enumeration
// open (an added value is kept and shown as drift), and only the fields 0.0.48 requires required:
// the emulator's `--api 2024` checks its answers with these, so it cannot answer what that SDK
// cannot parse. The interface-shaped reads the client uses (agent.ts, call.ts, ...) stay as they are.

const Embedded = z.looseObject({ id: z.string(), user_id: z.string() });
/** A reference: an id (list items) or the object embedded (full objects). */
const Ref = z.union([z.string(), Embedded]);

/** A voice of the current API: its type (open) and every type's own fields, tuning included. */
export const Voice2024Schema = z.looseObject({
  id: z.string(),
  user_id: z.string(),
  type: z.string(),
  voice_name: z.string().nullish(),
  pitch: z.number().int().nullish(),
  rate: z.number().int().nullish(),
  voice_id: z.string().nullish(),
  speaker: z.string().nullish(),
  api_key: z.string().nullish(),
  api_user_id: z.string().nullish(),
  stability: z.number().nullish(),
  similarity_boost: z.number().nullish(),
  optimize_streaming_latency: z.number().int().nullish(),
  model_id: z.string().nullish(),
  experimental_input_streaming: z.boolean().nullish(),
  version: openEnum(PLAY_HT_VERSIONS).nullish(),
  speed: z.number().nullish(),
  quality: openEnum(PLAY_HT_QUALITIES).nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  text_guidance: z.number().nullish(),
  voice_guidance: z.number().nullish(),
  experimental_remove_silence: z.boolean().nullish(),
  speed_alpha: z.number().nullish(),
});
/** A voice of the current API. */
export type Voice2024 = z.infer<typeof Voice2024Schema>;

/**
 * An agent of the current API: `Agent` (prompt, voice, actions, webhook, vector database and OpenAI
 * connection embedded) or a list page's `NormalizedAgent` (ids, the prompt inline or by id).
 */
export const Agent2024Schema = z.looseObject({
  id: z.string(),
  user_id: z.string(),
  name: z.string().nullish(),
  prompt: z.union([z.string(), PromptSchema, z.looseObject({ content: z.string().nullish() })]),
  language: openEnum(LANGUAGES).nullish(),
  actions: z.array(Ref),
  voice: z.union([z.string(), Voice2024Schema]),
  initial_message: z.string().nullish(),
  webhook: Ref.nullish(),
  vector_database: z.union([z.string(), VectorDatabaseSchema]).nullish(),
  interrupt_sensitivity: openEnum(INTERRUPT_SENSITIVITIES).nullish(),
  context_endpoint: z.string().nullish(),
  noise_suppression: z.boolean().nullish(),
  endpointing_sensitivity: openEnum(ENDPOINTING_SENSITIVITIES).nullish(),
  ivr_navigation_mode: openEnum(IVR_NAVIGATION_MODES).nullish(),
  conversation_speed: z.number().nullish(),
  initial_message_delay: z.number().nullish(),
  openai_model_name_override: z.string().nullish(),
  ask_if_human_present_on_idle: z.boolean().nullish(),
  openai_account_connection: z.union([z.string(), AccountConnectionSchema]).nullish(),
  run_do_not_call_detection: z.boolean().nullish(),
  llm_fallback: z.looseObject({ provider: openEnum(LLM_FALLBACK_PROVIDERS), model_name: z.string() }).nullish(),
  deepgram_keywords: z.record(z.string(), z.number().nullable()).nullish(),
  idle_time_seconds: z.number().int().nullish(),
  llm_temperature: z.number().nullish(),
});
/** An agent of the current API. */
export type Agent2024 = z.infer<typeof Agent2024Schema>;

/** A phone number of the current API (`PhoneNumber`, or a page's `NormalizedPhoneNumber`). */
export const PhoneNumber2024Schema = z.looseObject({
  id: z.string(),
  user_id: z.string(),
  active: z.boolean().nullish(),
  label: z.string().nullish(),
  inbound_agent: z.union([z.string(), Agent2024Schema]).nullish(),
  outbound_only: z.boolean().nullish(),
  example_context: z.record(z.string(), z.string().nullable()).nullish(),
  number: z.string(),
  telephony_provider: openEnum(TELEPHONY_PROVIDERS).nullish(),
  telephony_account_connection: z.union([z.string(), AccountConnectionSchema]).nullish(),
});
/** A phone number of the current API. */
export type PhoneNumber2024 = z.infer<typeof PhoneNumber2024Schema>;

/**
 * A call of the current API (`Call`, or a page's `NormalizedCall`). 0.0.48 requires
 * `telephony_provider` and `agent_phone_number` besides the interface's fields: without them its
 * client cannot read a call at all.
 */
export const Call2024Schema = z.looseObject({
  id: z.string(),
  user_id: z.string(),
  status: openEnum(CALL_STATUSES).nullish(),
  error_message: z.string().nullish(),
  recording_available: z.boolean().nullish(),
  transcript: z.string().nullish(),
  human_detection_result: z.string().nullish(),
  do_not_call_result: z.boolean().nullish(),
  telephony_id: z.string().nullish(),
  stage: z.string().nullish(),
  stage_outcome: z.string().nullish(),
  telephony_metadata: z.looseObject({ type: z.string() }).nullish(),
  /** A string in `Call`, a number in `NormalizedCall` (0.0.48 types them so). */
  start_time: z.union([z.string(), z.number()]).nullish(),
  end_time: z.union([z.string(), z.number()]).nullish(),
  to_number: z.string(),
  from_number: z.string(),
  agent: z.union([z.string(), Agent2024Schema]),
  telephony_provider: openEnum(TELEPHONY_PROVIDERS),
  agent_phone_number: z.string(),
  hipaa_compliant: z.boolean().nullish(),
  on_no_human_answer: openEnum(ON_NO_HUMAN_ANSWER).nullish(),
  context: z.record(z.string(), z.string().nullable()).nullish(),
  run_do_not_call_detection: z.boolean().nullish(),
  telephony_account_connection: z.union([z.string(), AccountConnectionSchema]).nullish(),
  telephony_params: z.record(z.string(), z.string().nullable()).nullish(),
});
/** A call of the current API. */
export type Call2024 = z.infer<typeof Call2024Schema>;

/** A list page of the current API: 0.0.48's pages require `total_is_estimated`. */
export function page2024Of<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    size: z.number().int(),
    total: z.number().int(),
    has_more: z.boolean(),
    total_is_estimated: z.boolean(),
  });
}
