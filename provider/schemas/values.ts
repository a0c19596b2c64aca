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

/** Action types the real service knows. */
export const ACTION_TYPES = ["action_end_conversation", "action_transfer_call", "action_dtmf"] as const;
/** A known action type. */
export type ActionType = (typeof ACTION_TYPES)[number];

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
