// The fleet's shape as zod: what a stack file's `fleet` value may hold. Every object is strict (an
// unknown key is a typo until proven otherwise), and no message repeats a value: any of them may be
// a secret. References between entries are checked in ./check.ts, where all the keys are known.
import { z } from "zod";
import { E164Schema, UuidSchema } from "../schemas/common.js";
import {
  ACCOUNT_CONNECTION_TYPES,
  ACTION_TRIGGER_TYPES,
  ACTION_TYPES,
  ENDPOINTING_SENSITIVITIES,
  INTERRUPT_SENSITIVITIES,
  IVR_NAVIGATION_MODES,
  LANGUAGES,
  LLM_FALLBACK_PROVIDERS,
  PHRASE_CONDITIONS,
  PLAY_HT_QUALITIES,
  PLAY_HT_VERSIONS,
  VECTOR_DATABASE_TYPES,
  VOICE_TYPES,
  WEBHOOK_EVENTS,
  WEBHOOK_METHODS,
} from "../schemas/values.js";
import type { FleetSpec } from "./spec.js";

/** A key of the fleet: it becomes part of a resource name, so it keeps to URN-safe characters. */
export const FleetKeySchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, {
  error: "a name must be letters, digits, '-', '_' or '.' (at most 63), starting with a letter or digit",
});

/**
 * YAML and `pulumi config set --path` read an unquoted +15551234567 or 415 as an integer; the
 * digits are unambiguous (E.164 never starts with 0), so take them back as the string meant.
 */
const digits = (plus: string) => (v: unknown) =>
  typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? `${plus}${v}` : v;

const was = z
  .union([FleetKeySchema, z.array(FleetKeySchema)])
  .transform((v) => (typeof v === "string" ? [v] : v))
  .optional();

const entry = { id: UuidSchema.optional(), was };

// Every voice type's fields, as the Voice takes them: their types are checked here; which a type
// needs and may have, and the tuning fields' ranges, by the Voice's own check at preview. The 2023
// shape (voice_base, the type when none is set) is checked here too, as it always was.
const VOICE_BASE_FIELDS = ["voiceName", "pitch", "rate"] as const;
const VoiceSchema = z
  .strictObject({
    ...entry,
    voiceName: z.string().min(1, { error: "must not be empty" }).optional(),
    pitch: z.number().int({ error: "must be an integer" }).optional(),
    rate: z.number().int({ error: "must be an integer" }).optional(),
    type: z.enum(VOICE_TYPES).optional(),
    vendorVoiceId: z.string().min(1, { error: "must not be empty" }).optional(),
    speaker: z.string().min(1, { error: "must not be empty" }).optional(),
    apiKey: z.string().min(1, { error: "must not be empty" }).optional(),
    apiUserId: z.string().min(1, { error: "must not be empty" }).optional(),
    stability: z.number().optional(),
    similarityBoost: z.number().optional(),
    optimizeStreamingLatency: z.number().int({ error: "must be an integer" }).optional(),
    experimentalInputStreaming: z.boolean().optional(),
    modelId: z.string().min(1, { error: "must not be empty" }).optional(),
    version: z.enum(PLAY_HT_VERSIONS).optional(),
    speed: z.number().optional(),
    quality: z.enum(PLAY_HT_QUALITIES).optional(),
    temperature: z.number().optional(),
    topP: z.number().optional(),
    textGuidance: z.number().optional(),
    voiceGuidance: z.number().optional(),
    experimentalRemoveSilence: z.boolean().optional(),
    speedAlpha: z.number().optional(),
  })
  .superRefine((voice, ctx) => {
    if ((voice.type ?? "voice_base") !== "voice_base") return;
    for (const field of VOICE_BASE_FIELDS)
      if (voice[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message: "required" });
  });

// Which keys a type's config takes, and which triggers it may have, are the Action's own check at
// preview; here only their shapes.
const ActionSchema = z.strictObject({
  ...entry,
  type: z.enum(ACTION_TYPES).optional(),
  config: z.looseObject({ phoneNumber: z.preprocess(digits("+"), E164Schema).optional() }).optional(),
  actionTrigger: z
    .strictObject({
      type: z.enum(ACTION_TRIGGER_TYPES),
      phraseTriggers: z
        .array(
          z.strictObject({
            phrase: z.string().min(1, { error: "must not be empty" }),
            conditions: z
              .array(z.enum(PHRASE_CONDITIONS))
              .min(1, { error: "must name at least one condition" })
              .optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  signatureSecret: z.string().min(1, { error: "must not be empty" }).optional(),
});

const WebhookSchema = z.strictObject({
  ...entry,
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  method: z.enum(WEBHOOK_METHODS).optional(),
  subscriptions: z.array(z.enum(WEBHOOK_EVENTS)).min(1, { error: "must name at least one event" }),
});

// The current API's own objects (2024): their types are checked here, the rest by each kind's own
// check at preview (a secret left out of the stack file, to be set with --secret, is named there).
const nonEmpty = () => z.string().min(1, { error: "must not be empty" });
const PromptSchema = z.strictObject({
  ...entry,
  content: nonEmpty().optional(),
  collectFields: z
    .array(
      z.strictObject({
        name: nonEmpty(),
        label: nonEmpty(),
        description: nonEmpty().optional(),
        fieldType: nonEmpty().optional(),
      }),
    )
    .optional(),
  contextEndpoint: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  promptTemplate: UuidSchema.optional(),
});

const VectorDatabaseSchema = z.strictObject({
  ...entry,
  type: z.enum(VECTOR_DATABASE_TYPES).optional(),
  index: nonEmpty(),
  apiKey: nonEmpty().optional(),
  apiEnvironment: nonEmpty(),
});

const AccountConnectionSchema = z.strictObject({
  ...entry,
  type: z.enum(ACCOUNT_CONNECTION_TYPES),
  openaiApiKey: nonEmpty().optional(),
  twilioAccountSid: nonEmpty().optional(),
  twilioAuthToken: nonEmpty().optional(),
  steeringPool: z.array(E164Schema).optional(),
  accountSupportsAnyCallerId: z.boolean().optional(),
});

// The agent's current-API (2024) fields pass to the Agent as they are: their types are checked here,
// their ranges and the rule "exactly one of prompt and promptId" by the Agent's own check at preview.
const AgentSchema = z.strictObject({
  ...entry,
  prompt: z.string().min(1, { error: "must not be empty" }).optional(),
  voice: z.string().min(1, { error: "must name a voice" }),
  initialMessage: z.string().optional(),
  actions: z.array(z.string().min(1, { error: "must name an action" })).optional(),
  webhook: z.string().min(1, { error: "must name a webhook" }).optional(),
  promptId: z.string().min(1, { error: "must name a prompt" }).optional(),
  name: z.string().min(1, { error: "must not be empty" }).optional(),
  language: z.enum(LANGUAGES).optional(),
  interruptSensitivity: z.enum(INTERRUPT_SENSITIVITIES).optional(),
  endpointingSensitivity: z.enum(ENDPOINTING_SENSITIVITIES).optional(),
  ivrNavigationMode: z.enum(IVR_NAVIGATION_MODES).optional(),
  conversationSpeed: z.number().optional(),
  initialMessageDelay: z.number().optional(),
  idleTimeSeconds: z.number().int({ error: "must be a whole number of seconds" }).optional(),
  askIfHumanPresentOnIdle: z.boolean().optional(),
  noiseSuppression: z.boolean().optional(),
  runDoNotCallDetection: z.boolean().optional(),
  contextEndpoint: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  llmTemperature: z.number().optional(),
  openaiModelNameOverride: z.string().min(1, { error: "must not be empty" }).optional(),
  llmFallback: z
    .strictObject({
      provider: z.enum(LLM_FALLBACK_PROVIDERS),
      modelName: z.string().min(1, { error: "must not be empty" }),
    })
    .optional(),
  deepgramKeywords: z.record(z.string().regex(/\S/, { error: "must not be empty" }), z.number()).optional(),
  vectorDatabase: z.string().min(1, { error: "must name a vector database" }).optional(),
  openaiAccountConnection: z.string().min(1, { error: "must name an account connection" }).optional(),
});

const LineSchema = z
  .strictObject({
    agent: z.string().min(1, { error: "must name an agent" }).optional(),
    number: z.preprocess(digits("+"), E164Schema).optional(),
    link: z
      .strictObject({
        connection: z.string().min(1, { error: "must name an account connection" }),
        outboundOnly: z.boolean().optional(),
      })
      .optional(),
    buy: z
      .strictObject({
        areaCode: z.preprocess(digits(""), z.string().regex(/^\d{3}$/, { error: "must be 3 digits" })).optional(),
      })
      .optional(),
    protect: z.boolean().optional(),
    was,
  })
  .superRefine((line, ctx) => {
    if (line.link !== undefined && line.buy !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["link"],
        message: "a linked number is one of your Twilio account's: give `number` with `link`, not `buy`",
      });
    }
    if ((line.number === undefined) === (line.buy === undefined)) {
      ctx.addIssue({
        code: "custom",
        message: "give either `number` (one the account owns) or `buy` (one to buy), not both or neither",
      });
    }
    // A linked number may have no agent (outbound only, or linked for later): it is a LinkedNumber,
    // whose inbound agent is optional. A binding or a purchase is a PhoneNumber, which needs one.
    if (line.agent === undefined && line.link === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["agent"],
        message: "required: the agent that answers the line (only a linked number, `link`, may have none)",
      });
    }
    if (line.agent !== undefined && line.link?.outboundOnly === true) {
      ctx.addIssue({
        code: "custom",
        path: ["agent"],
        message:
          "an outbound-only number (`link.outboundOnly: true`) has no agent answering it: remove `agent`, or set `link.outboundOnly` to false",
      });
    }
    if (line.protect !== undefined && line.buy === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["protect"],
        message: "only a bought number (`buy`) can be protected; a binding never cancels its number",
      });
    }
  });

/** A kind's entries by key; an empty section (`voices:` with nothing under it) is null in YAML. */
const section = <T extends z.ZodType>(value: T) =>
  z.preprocess((v) => v ?? undefined, z.record(FleetKeySchema, value).optional());

/** The fleet value of a stack file: voices, actions, webhooks, the current API's objects, agents and lines, each by key. */
export const FleetSchema = z.strictObject({
  voices: section(VoiceSchema),
  actions: section(ActionSchema),
  webhooks: section(WebhookSchema),
  prompts: section(PromptSchema),
  vectorDatabases: section(VectorDatabaseSchema),
  accountConnections: section(AccountConnectionSchema),
  agents: section(AgentSchema),
  lines: section(LineSchema),
});

/** The sections of a fleet, in the order resources are declared (what others refer to first). */
export const FLEET_SECTIONS = [
  "voices",
  "actions",
  "webhooks",
  "prompts",
  "vectorDatabases",
  "accountConnections",
  "agents",
  "lines",
] as const;

/** The keys each object of the fleet accepts, for the message that refuses an unknown one. */
export const KNOWN_KEYS = {
  fleet: Object.keys(FleetSchema.shape),
  voices: Object.keys(VoiceSchema.shape),
  actions: Object.keys(ActionSchema.shape),
  webhooks: Object.keys(WebhookSchema.shape),
  prompts: Object.keys(PromptSchema.shape),
  vectorDatabases: Object.keys(VectorDatabaseSchema.shape),
  accountConnections: Object.keys(AccountConnectionSchema.shape),
  agents: Object.keys(AgentSchema.shape),
  lines: Object.keys(LineSchema.shape),
  buy: ["areaCode"],
  link: ["connection", "outboundOnly"],
} as const;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// The public types (./spec.ts) must be exactly what this schema gives: this line fails to compile otherwise.
true satisfies Same<z.output<typeof FleetSchema>, FleetSpec>;
