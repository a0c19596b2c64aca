import { z } from "zod";
import { AccountConnectionSchema } from "./account-connection.js";
import { pageOf } from "./common.js";
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
// its get/create/update routes return (related objects embedded: `Agent2024Schema`, ...) and the
// items of its list pages (related objects by id: `AgentItem2024Schema`, ...). Loose objects (a field added on the server is kept), every enumeration
// open (an added value is kept and shown as drift), and only the fields 0.0.48 requires required:
// the emulator's `--api 2024` checks its answers with these, so it cannot answer what that SDK
// cannot parse. The interface-shaped reads the client uses (agent.ts, call.ts, ...) stay as they are.

const Embedded = z.looseObject({ id: z.string(), user_id: z.string() });

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

/** The fields an agent has in both of the current API's shapes. */
const agentFields = {
  id: z.string(),
  user_id: z.string(),
  name: z.string().nullish(),
  language: openEnum(LANGUAGES).nullish(),
  initial_message: z.string().nullish(),
  interrupt_sensitivity: openEnum(INTERRUPT_SENSITIVITIES).nullish(),
  context_endpoint: z.string().nullish(),
  noise_suppression: z.boolean().nullish(),
  endpointing_sensitivity: openEnum(ENDPOINTING_SENSITIVITIES).nullish(),
  ivr_navigation_mode: openEnum(IVR_NAVIGATION_MODES).nullish(),
  conversation_speed: z.number().nullish(),
  initial_message_delay: z.number().nullish(),
  openai_model_name_override: z.string().nullish(),
  ask_if_human_present_on_idle: z.boolean().nullish(),
  run_do_not_call_detection: z.boolean().nullish(),
  llm_fallback: z.looseObject({ provider: openEnum(LLM_FALLBACK_PROVIDERS), model_name: z.string() }).nullish(),
  deepgram_keywords: z.record(z.string(), z.number().nullable()).nullish(),
  idle_time_seconds: z.number().int().nullish(),
  llm_temperature: z.number().nullish(),
};

/**
 * A full agent of the current API (`Agent`: agent reads, and embedded in numbers and calls): its
 * prompt object, voice, actions, webhook, vector database and OpenAI connection embedded.
 */
export const Agent2024Schema = z.looseObject({
  ...agentFields,
  prompt: PromptSchema,
  actions: z.array(Embedded),
  voice: Voice2024Schema,
  webhook: Embedded.nullish(),
  vector_database: VectorDatabaseSchema.nullish(),
  openai_account_connection: AccountConnectionSchema.nullish(),
});
/** A full agent of the current API. */
export type Agent2024 = z.infer<typeof Agent2024Schema>;

/** An agent in a list page of the current API (`NormalizedAgent`): references by id, the prompt by id or inline. */
export const AgentItem2024Schema = z.looseObject({
  ...agentFields,
  prompt: z.union([z.string(), z.looseObject({ content: z.string().nullish() })]),
  actions: z.array(z.string()),
  voice: z.string(),
  webhook: z.string().nullish(),
  vector_database: z.union([z.string(), z.looseObject({ index: z.string() })]).nullish(),
  openai_account_connection: z.union([z.string(), AccountConnectionSchema]).nullish(),
});
/** An agent in a list page of the current API. */
export type AgentItem2024 = z.infer<typeof AgentItem2024Schema>;

const numberFields = {
  id: z.string(),
  user_id: z.string(),
  active: z.boolean().nullish(),
  label: z.string().nullish(),
  outbound_only: z.boolean().nullish(),
  example_context: z.record(z.string(), z.string().nullable()).nullish(),
  number: z.string(),
  telephony_provider: openEnum(TELEPHONY_PROVIDERS).nullish(),
};

/** A full phone number of the current API (`PhoneNumber`): its agent and Twilio connection embedded. */
export const PhoneNumber2024Schema = z.looseObject({
  ...numberFields,
  inbound_agent: Agent2024Schema.nullish(),
  telephony_account_connection: AccountConnectionSchema.nullish(),
});
/** A full phone number of the current API. */
export type PhoneNumber2024 = z.infer<typeof PhoneNumber2024Schema>;

/** A phone number in a list page of the current API (`NormalizedPhoneNumber`): references by id. */
export const PhoneNumberItem2024Schema = z.looseObject({
  ...numberFields,
  inbound_agent: z.string().nullish(),
  telephony_account_connection: z.union([z.string(), AccountConnectionSchema]).nullish(),
});

/**
 * A call's fields in both of the current API's shapes. 0.0.48 requires `telephony_provider` and
 * `agent_phone_number` besides the interface's fields: without them its client cannot read a call at all.
 */
const callFields = {
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
  telephony_provider: openEnum(TELEPHONY_PROVIDERS),
  agent_phone_number: z.string(),
  hipaa_compliant: z.boolean().nullish(),
  on_no_human_answer: openEnum(ON_NO_HUMAN_ANSWER).nullish(),
  context: z.record(z.string(), z.string().nullable()).nullish(),
  run_do_not_call_detection: z.boolean().nullish(),
  telephony_params: z.record(z.string(), z.string().nullable()).nullish(),
};

/** A full call of the current API (`Call`): its agent and Twilio connection embedded. */
export const Call2024Schema = z.looseObject({
  ...callFields,
  agent: Agent2024Schema,
  telephony_account_connection: AccountConnectionSchema.nullish(),
});
/** A full call of the current API. */
export type Call2024 = z.infer<typeof Call2024Schema>;

/** A call in a list page of the current API (`NormalizedCall`): references by id. */
export const CallItem2024Schema = z.looseObject({
  ...callFields,
  agent: z.string(),
  telephony_account_connection: z.union([z.string(), AccountConnectionSchema]).nullish(),
});

/** A list page of the current API: 0.0.48's pages require `total_is_estimated`. */
export function page2024Of<T extends z.ZodType>(item: T) {
  return pageOf(item).extend({ total_is_estimated: z.boolean() });
}
