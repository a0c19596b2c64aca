// The service's known enumerated values (docs/decisions.md §1), as plain constants and string unions. This
// module imports nothing, so the resources' public types can name these unions without a consumer's
// type-check descending into zod.

/**
 * Voice types: voice_base is the interface's (2023) only; the current API (2024) knows the other
 * five, each with its own fields (docs/contract-current.md).
 */
export const VOICE_TYPES = [
  "voice_base",
  "voice_azure",
  "voice_rime",
  "voice_eleven_labs",
  "voice_play_ht",
  "voice_vocode",
] as const;
/** A known voice type. */
export type VoiceType = (typeof VOICE_TYPES)[number];

/**
 * Action types: the interface (2023) knows the first three; the current API (2024, SDK 0.0.48's
 * `ActionResponseModel`) all six, each with its own config (docs/contract-current.md).
 */
export const ACTION_TYPES = [
  "action_end_conversation",
  "action_transfer_call",
  "action_dtmf",
  "action_external",
  "action_add_to_conference",
  "action_set_hold",
] as const;
/** A known action type. */
export type ActionType = (typeof ACTION_TYPES)[number];
/** The action types the interface (2023) has. */
export const ACTION_TYPES_2023 = ["action_end_conversation", "action_transfer_call", "action_dtmf"] as const;

/** How an action is set off (current API): the model decides (function call), or a phrase the caller says. */
export const ACTION_TRIGGER_TYPES = ["action_trigger_function_call", "action_trigger_phrase_based"] as const;
/** An action trigger type. */
export type ActionTriggerType = (typeof ACTION_TRIGGER_TYPES)[number];
/** How a phrase trigger matches what the caller says (0.0.48 has one). */
export const PHRASE_CONDITIONS = ["phrase_condition_type_contains"] as const;
/** A phrase condition. */
export type PhraseCondition = (typeof PHRASE_CONDITIONS)[number];
/** An external action's processing modes (0.0.48: `muted`, the agent stays silent while it runs). */
export const EXTERNAL_PROCESSING_MODES = ["muted"] as const;
/** An external action's processing mode. */
export type ExternalProcessingMode = (typeof EXTERNAL_PROCESSING_MODES)[number];

/** Webhook delivery methods. */
export const WEBHOOK_METHODS = ["GET", "POST"] as const;
/** A webhook delivery method. */
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

/** Event names a webhook can subscribe to. */
export const WEBHOOK_EVENTS = [
  "event_message",
  "event_action",
  "event_phone_call_connected",
  "event_phone_call_ended",
  "event_transcript",
  "event_recording",
  "event_phone_call_did_not_connect",
  "event_human_detection",
] as const;
/** A webhook event name. */
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Call states of the real service; the interface shows only not_started. */
export const CALL_STATUSES = ["not_started", "in_progress", "error", "ended"] as const;
/** A known call status. */
export type CallStatus = (typeof CALL_STATUSES)[number];

// The current API's (2024, SDK 0.0.48) enumerations. Each is open on read: the service may add a
// value, which the read schemas keep as it came (shown as drift), while request schemas check these.

/** An agent's language. */
export const LANGUAGES = ["en", "es", "de", "hi", "pt", "fr", "nl", "id", "it", "ja", "ko"] as const;
/** An agent's language. */
export type Language = (typeof LANGUAGES)[number];
/** An agent's interrupt sensitivity. */
export const INTERRUPT_SENSITIVITIES = ["low", "high"] as const;
/** An agent's interrupt sensitivity. */
export type InterruptSensitivity = (typeof INTERRUPT_SENSITIVITIES)[number];
/** An agent's endpointing sensitivity. */
export const ENDPOINTING_SENSITIVITIES = ["auto", "relaxed", "sensitive"] as const;
/** An agent's endpointing sensitivity. */
export type EndpointingSensitivity = (typeof ENDPOINTING_SENSITIVITIES)[number];
/** An agent's IVR navigation mode. */
export const IVR_NAVIGATION_MODES = ["default", "off"] as const;
/** An agent's IVR navigation mode. */
export type IvrNavigationMode = (typeof IVR_NAVIGATION_MODES)[number];
/** The provider of an agent's fallback LLM. */
export const LLM_FALLBACK_PROVIDERS = ["openai", "azure"] as const;
/** The provider of an agent's fallback LLM. */
export type LlmFallbackProvider = (typeof LLM_FALLBACK_PROVIDERS)[number];
/** Telephony providers of numbers and calls. */
export const TELEPHONY_PROVIDERS = ["vonage", "twilio"] as const;
/** What a call does when no human answers. */
export const ON_NO_HUMAN_ANSWER = ["continue", "hangup"] as const;
/** A team's plan, as usage reports it. */
export const PLAN_TYPES = ["plan_free", "plan_developer", "plan_enterprise", "plan_unlimited"] as const;
/** Play.ht voice engine versions. */
export const PLAY_HT_VERSIONS = ["1", "2"] as const;
/** A Play.ht voice engine version. */
export type PlayHtVersion = (typeof PLAY_HT_VERSIONS)[number];
/** Play.ht voice qualities. */
export const PLAY_HT_QUALITIES = ["faster", "draft", "low", "medium", "high", "premium"] as const;
/** A Play.ht voice quality. */
export type PlayHtQuality = (typeof PLAY_HT_QUALITIES)[number];
/** Rime voice models. */
export const RIME_MODEL_IDS = ["mist", "v1"] as const;
/** A Rime voice model. */
export type RimeModelId = (typeof RIME_MODEL_IDS)[number];
/** Account connection types. */
export const ACCOUNT_CONNECTION_TYPES = ["account_connection_openai", "account_connection_twilio"] as const;
/** A known account connection type. */
export type AccountConnectionType = (typeof ACCOUNT_CONNECTION_TYPES)[number];
/** Vector database types. */
export const VECTOR_DATABASE_TYPES = ["vector_database_pinecone"] as const;
/** A known vector database type. */
export type VectorDatabaseType = (typeof VECTOR_DATABASE_TYPES)[number];
