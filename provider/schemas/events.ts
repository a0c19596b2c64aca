import { z } from "zod";
import { E164Schema } from "./common.js";

// The events a call produces, as a webhook receives them (docs/emulator.md "Calls and events").
// The shapes follow the service's open-source core (vocode-core's streaming/models/events.py and
// transcript.py): a `type` naming the event, the `conversation_id` (the call's id) and the
// event's own fields. The current SDK (0.0.48) names the events and types none of them.

/** Who said a line of a call: the caller or callee (`human`) or the agent (`bot`). */
export const SenderSchema = z.enum(["human", "bot"]);
/** Who said a line of a call. */
export type Sender = z.infer<typeof SenderSchema>;

const base = { conversation_id: z.string() };

/** The call was answered: both ends are on the line. */
export const PhoneCallConnectedEventSchema = z.object({
  type: z.literal("event_phone_call_connected"),
  ...base,
  to_phone_number: z.string(),
  from_phone_number: z.string(),
});

/** The call ended after it connected; its length in minutes. */
export const PhoneCallEndedEventSchema = z.object({
  type: z.literal("event_phone_call_ended"),
  ...base,
  conversation_minutes: z.number(),
});

/** The call never connected; the telephony's word for why (`no-answer`, `busy`, `failed`, `canceled`). */
export const PhoneCallDidNotConnectEventSchema = z.object({
  type: z.literal("event_phone_call_did_not_connect"),
  ...base,
  telephony_status: z.string(),
});

/** One line of the conversation: its text, who said it, when (Unix seconds). */
const line = { ...base, text: z.string(), sender: SenderSchema, timestamp: z.number() };
/** A line of the transcript, as it is said (vocode-core's TranscriptEvent). */
export const TranscriptEventSchema = z.object({ type: z.literal("event_transcript"), ...line });
/** A message of the conversation: the same line under the hosted service's event name. */
export const MessageEventSchema = z.object({ type: z.literal("event_message"), ...line });

/** Any event a call sends to its agent's webhook. */
export const CallEventSchema = z.discriminatedUnion("type", [
  PhoneCallConnectedEventSchema,
  MessageEventSchema,
  TranscriptEventSchema,
  PhoneCallEndedEventSchema,
  PhoneCallDidNotConnectEventSchema,
]);
/** Any event a call sends to its agent's webhook. */
export type CallEvent = z.infer<typeof CallEventSchema>;
/** The name of an event a call sends. */
export type CallEventType = CallEvent["type"];

// The emulator's admin API for calls (not the service's: a bench for integration tests).

/** A line of a script: a string is the caller's (human's); an object says who speaks. */
export const ScriptLineSchema = z.union([
  z.string().min(1).max(2000),
  z.object({ sender: SenderSchema, text: z.string().min(1).max(2000) }),
]);

/** `POST /admin/calls/inbound`: a caller (`from`) dials one of the account's numbers (`to`). */
export const InboundCallSchema = z.object({
  to: E164Schema,
  from: E164Schema,
  /** What the caller says, in turn after the agent's opening message; a default line when omitted. */
  script: z.array(ScriptLineSchema).max(50).optional(),
});
/** `POST /admin/calls/inbound`'s body. */
export type InboundCall = z.input<typeof InboundCallSchema>;

/**
 * `POST /admin/calls/callees`: how a number called by an outbound call behaves (answers with a
 * script, or does not connect with a telephony status).
 */
export const CalleeSchema = z.object({
  number: E164Schema,
  answers: z.boolean().default(true),
  telephony_status: z.enum(["no-answer", "busy", "failed"]).default("no-answer"),
  script: z.array(ScriptLineSchema).max(50).optional(),
});

/** What became of one event's delivery to a webhook. */
export const DeliveryStateSchema = z.enum(["pending", "delivered", "dropped"]);

/** One event of a call, as `GET /admin/calls/events` lists it, with its delivery when it has one. */
export const CallEventRecordSchema = z.object({
  seq: z.number(),
  event: CallEventSchema,
  /** Null when the agent has no webhook or its webhook does not subscribe to the event. */
  delivery: z
    .object({
      webhook: z.string(),
      state: DeliveryStateSchema,
      attempts: z.number(),
      /** The last failed attempt's HTTP status, or its error (`timeout`, `ECONNREFUSED`...). */
      last_failure: z.string().nullable(),
    })
    .nullable(),
});

/** `GET /admin/calls/events?id=`: the call's progress and every event it produced so far. */
export const CallEventsAnswerSchema = z.object({
  id: z.string(),
  agent: z.string(),
  /** `ringing`, `connected`, `ended`, `did_not_connect`. */
  phase: z.enum(["ringing", "connected", "ended", "did_not_connect"]),
  /** The agent's webhook when the call started, or null. */
  webhook: z.object({ id: z.string(), subscriptions: z.array(z.string()) }).nullable(),
  /** True once the call is over and every delivery is delivered or dropped. */
  settled: z.boolean(),
  events: z.array(CallEventRecordSchema),
});
/** `GET /admin/calls/events?id=`'s answer. */
export type CallEventsAnswer = z.infer<typeof CallEventsAnswerSchema>;

/** Why an inbound call was not answered (409 from `POST /admin/calls/inbound`). */
export const UNANSWERED_REASONS = ["number_cancelled", "no_inbound_agent", "outbound_only"] as const;
