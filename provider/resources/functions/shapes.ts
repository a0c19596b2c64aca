import { z } from "zod";
import type { Action, Agent, Call, PhoneNumber, Voice, Webhook } from "../../schemas/index.js";

// What the functions answer about each kind of object, in the provider's property names (camelCase,
// related objects by id, as the resources' outputs have them). Each shape is written once: a
// single lookup answers it, and the list lookups answer lists of it.

const doc = (description: string) => ({ description });
const secret = (description: string) => ({ description, secret: true });
const owner = z.string().meta(doc("The id of the user who owns it on the service."));

/** A voice, as the functions answer it. */
export const VoiceFound = z
  .object({
    id: z.string().meta(doc("The voice's id (a UUID).")),
    voiceName: z
      .string()
      .nullable()
      .meta(doc('Its name, e.g. "alloy" (voice_base, voice_azure); null: its type has none.')),
    type: z
      .string()
      .meta(
        doc(
          "Its type: voice_base, voice_azure, voice_eleven_labs, voice_play_ht, voice_rime, voice_vocode (or a newer one).",
        ),
      ),
    pitch: z.number().nullable().meta(doc("Its pitch; null: its type has none, or the service left it unset.")),
    rate: z.number().nullable().meta(doc("Its speaking rate; null: its type has none, or the service left it unset.")),
    vendorVoiceId: z
      .string()
      .nullable()
      .meta(doc("The vendor's voice id (voice_eleven_labs, voice_play_ht, voice_vocode); null: none.")),
    speaker: z.string().nullable().meta(doc("The speaker (voice_rime); null: none.")),
    userId: owner,
  })
  .meta({ id: "FoundVoice", description: "A voice of the account." });

/** A voice from the service, in the functions' shape. */
export const voiceFound = (v: Voice): z.input<typeof VoiceFound> => ({
  id: v.id,
  voiceName: v.voice_name ?? null,
  type: v.type,
  pitch: v.pitch ?? null,
  rate: v.rate ?? null,
  vendorVoiceId: v.voice_id ?? null,
  speaker: v.speaker ?? null,
  userId: v.user_id,
});

/** An agent, as the functions answer it: its prompt is secret (a bank's prompts are confidential). */
export const AgentFound = z
  .object({
    id: z.string().meta(doc("The agent's id (a UUID).")),
    prompt: z.string().meta(secret("Its instructions: secret.")),
    voice: z.string().meta(doc("The id of the voice it speaks with.")),
    initialMessage: z.string().nullable().meta(doc("What it says first when a call connects; null: nothing.")),
    actions: z.array(z.string()).meta(doc("The ids of the actions it may take.")),
    webhook: z.string().nullable().meta(doc("The id of the webhook that receives its events; null: none.")),
    userId: owner,
  })
  .meta({ id: "FoundAgent", description: "An agent of the account (its prompt secret)." });

/** An agent from the service, in the functions' shape. */
export const agentFound = (a: Agent): z.input<typeof AgentFound> => ({
  id: a.id,
  prompt: a.prompt,
  voice: a.voice.id,
  initialMessage: a.initial_message ?? null,
  actions: a.actions.map((x) => x.id),
  webhook: a.webhook?.id ?? null,
  userId: a.user_id,
});

/** A phone number of the account, as the functions answer it. */
export const NumberFound = z
  .object({
    id: z.string().meta(doc("The number's id (a UUID).")),
    number: z.string().meta(doc("The number, E.164 (e.g. +15551234567).")),
    active: z.boolean().meta(doc("False once the number is cancelled (it can no longer be bound).")),
    inboundAgent: z.string().nullable().meta(doc("The id of the agent that answers it; null: unbound.")),
    linked: z
      .boolean()
      .meta(
        doc(
          "Whether it is a number of the team's own Twilio account, linked through an account connection (numbers/link, " +
            "a `LinkedNumber`); false for a number the service sold, and always on the interface's API (2023).",
        ),
      ),
    telephonyAccountConnection: z
      .string()
      .nullable()
      .meta(doc("The id of the Twilio account connection it is linked through; null: not linked.")),
    userId: owner,
  })
  .meta({ id: "FoundNumber", description: "A phone number of the account." });

/** A phone number from the service, in the functions' shape. */
export const numberFound = (n: PhoneNumber): z.input<typeof NumberFound> => ({
  id: n.id,
  number: n.number,
  // The current API may leave `active` null: only false means cancelled.
  active: n.active !== false,
  inboundAgent: n.inbound_agent?.id ?? null,
  // Only the current API names the connection (by id in a list page, embedded in a read, of which
  // only the id is kept); the interface's numbers are never linked.
  linked: Boolean(n.telephony_account_connection),
  telephonyAccountConnection: connectionOf(n),
  userId: n.user_id,
});

/** The id of the account connection a number is linked through, whichever way the service names it. */
const connectionOf = (n: PhoneNumber): string | null => {
  const c = n.telephony_account_connection;
  return typeof c === "string" ? c : (c?.id ?? null);
};

/** An action, as the functions answer it. */
export const ActionFound = z
  .object({
    id: z.string().meta(doc("The action's id (a UUID).")),
    type: z
      .string()
      .meta(
        doc(
          "Its type: action_end_conversation, action_transfer_call, action_dtmf, action_external, " +
            "action_add_to_conference, action_set_hold (or a newer one).",
        ),
      ),
    phoneNumber: z
      .string()
      .nullable()
      .meta(doc("The number its config names (a transfer's or a conference's destination); null: none.")),
    name: z.string().nullable().meta(doc("An external action's function name; null: another type.")),
    url: z
      .string()
      .nullable()
      .meta(secret("An external action's URL: secret (a URL often carries a token); null: another type.")),
    triggerType: z
      .string()
      .meta(
        doc(
          "How it is set off: action_trigger_function_call (the model decides; also when the service holds no " +
            "trigger) or action_trigger_phrase_based.",
        ),
      ),
    userId: owner,
  })
  .meta({ id: "FoundAction", description: "An action of the account." });

/** An action from the service, in the functions' shape. */
export const actionFound = (a: Action): z.input<typeof ActionFound> => ({
  id: a.id,
  type: a.type,
  phoneNumber: a.config?.phone_number ?? null,
  name: a.config?.name ?? null,
  url: a.config?.url ?? null,
  triggerType: a.action_trigger?.type ?? "action_trigger_function_call",
  userId: a.user_id,
});

/** A webhook, as the functions answer it: its URL is secret (it often carries a token). */
export const WebhookFound = z
  .object({
    id: z.string().meta(doc("The webhook's id (a UUID).")),
    url: z.string().meta(secret("Where events are delivered: secret (a webhook URL often carries a token).")),
    method: z
      .string()
      .meta(doc("The HTTP method: GET or POST (a webhook the service holds without one is delivered by POST).")),
    subscriptions: z.array(z.string()).meta(doc("The events it receives.")),
    userId: owner,
  })
  .meta({ id: "FoundWebhook", description: "A webhook of the account (its URL secret)." });

/** A webhook from the service, in the functions' shape. */
export const webhookFound = (w: Webhook): z.input<typeof WebhookFound> => ({
  id: w.id,
  url: w.url,
  method: w.method ?? "POST",
  subscriptions: w.subscriptions,
  userId: w.user_id,
});

/** A call, as the functions answer it: its transcript and error message are secret (personal data). */
export const CallFound = z
  .object({
    id: z.string().meta(doc("The call's id (a UUID).")),
    status: z
      .string()
      .nullable()
      .meta(doc("not_started, in_progress, error or ended (or a newer status); null: the service left it unset.")),
    recordingAvailable: z
      .boolean()
      .nullable()
      .meta(doc("Whether the service holds a recording of it; null: the service did not say.")),
    transcript: z.string().nullable().meta(secret("What was said: secret (personal data); null: none yet.")),
    errorMessage: z
      .string()
      .nullable()
      .meta(secret("Why it failed, when it did: secret (it may quote the caller); null: none.")),
    fromNumber: z.string().meta(doc("The number it was placed from.")),
    toNumber: z.string().meta(doc("The number it called.")),
    agent: z.string().meta(doc("The id of the agent that spoke.")),
    userId: owner,
  })
  .meta({ id: "FoundCall", description: "A call placed from the account (its transcript and error message secret)." });

/** A call from the service, in the functions' shape. */
export const callFound = (c: Call): z.input<typeof CallFound> => ({
  id: c.id,
  status: c.status ?? null,
  recordingAvailable: c.recording_available ?? null,
  transcript: c.transcript ?? null,
  errorMessage: c.error_message ?? null,
  fromNumber: c.from_number,
  toNumber: c.to_number,
  agent: c.agent.id,
  userId: c.user_id,
});
