// The fleet's shape as plain TypeScript, for the public declarations: a user's type-check never
// descends into zod (test/consumer/public-types.test.ts). The zod schema in ./schema.ts is what
// validates a value; it fails to compile unless its output is exactly these types, so the two
// cannot drift apart.
import type {
  AccountConnectionType,
  ActionTriggerType,
  ActionType,
  EndpointingSensitivity,
  InterruptSensitivity,
  IvrNavigationMode,
  Language,
  LlmFallbackProvider,
  PhraseCondition,
  PlayHtQuality,
  PlayHtVersion,
  VectorDatabaseType,
  VoiceType,
  WebhookEvent,
  WebhookMethod,
} from "../schemas/values.js";

/** What every entry of the fleet may say besides its own fields. */
export interface FleetEntry {
  /** Adopt this existing object (its UUID) instead of creating one: the first `up` takes it over. */
  id?: string;
  /** Keys this entry had before a rename: the resource keeps its object (a Pulumi alias). */
  was?: string[];
}

/**
 * A voice of the fleet: each field is the Voice argument of the same name. voice_base (the 2023
 * API, the type when none is set) needs voiceName, pitch and rate; each current-API (2024) type
 * its own (voice_azure voiceName, voice_eleven_labs and voice_play_ht vendorVoiceId, voice_rime
 * speaker), checked by the Voice at preview. Keep apiKey and apiUserId secret config values
 * (`pulumi config set --path --secret fleet.voices.<key>.apiKey`).
 */
export interface FleetVoice extends FleetEntry {
  /** The voice's name, e.g. "alloy" (voice_base, voice_azure). */
  voiceName?: string;
  /** Pitch, an integer (voice_base; optional for voice_azure). */
  pitch?: number;
  /** Speaking rate, an integer (voice_base; optional for voice_azure). */
  rate?: number;
  /** The voice type (default voice_base). */
  type?: VoiceType;
  /** The vendor's voice id (voice_eleven_labs, voice_play_ht, voice_vocode). */
  vendorVoiceId?: string;
  /** The speaker (voice_rime). */
  speaker?: string;
  /** The vendor's API key (voice_eleven_labs, voice_play_ht), always secret. */
  apiKey?: string;
  /** The vendor's user id (voice_play_ht), always secret. */
  apiUserId?: string;
  /** ElevenLabs' tuning (voice_eleven_labs). */
  stability?: number;
  similarityBoost?: number;
  optimizeStreamingLatency?: number;
  experimentalInputStreaming?: boolean;
  /** The vendor's model (voice_eleven_labs, voice_rime). */
  modelId?: string;
  /** Play.ht's tuning (voice_play_ht). */
  version?: PlayHtVersion;
  speed?: number;
  quality?: PlayHtQuality;
  temperature?: number;
  topP?: number;
  textGuidance?: number;
  voiceGuidance?: number;
  experimentalRemoveSilence?: boolean;
  /** Rime's speed (voice_rime). */
  speedAlpha?: number;
}

/** An action of the fleet. */
export interface FleetAction extends FleetEntry {
  /** What it does (default action_end_conversation). */
  type?: ActionType;
  /** Its configuration: `phoneNumber` (E.164) for action_transfer_call; other keys pass as they are. */
  config?: { phoneNumber?: string; [key: string]: unknown };
  /** How it is set off (current API): the model decides (action_trigger_function_call, as when unset), or phrases the caller says. */
  actionTrigger?: {
    type: ActionTriggerType;
    /** For action_trigger_phrase_based: the phrases, each with how it matches (default: contains). */
    phraseTriggers?: { phrase: string; conditions?: PhraseCondition[] }[];
  };
  /** action_external: the secret the service signs its requests to your API with; secret whatever the fleet's value. */
  signatureSecret?: string;
}

/** A webhook of the fleet. */
export interface FleetWebhook extends FleetEntry {
  /** Where events are delivered: an http(s) URL. */
  url: string;
  /** GET or POST (default). */
  method?: WebhookMethod;
  /** Events to deliver. */
  subscriptions: WebhookEvent[];
}

/**
 * A prompt object of the fleet (the current API, 2024), which agents name by key in `promptId`.
 * Each field is the Prompt argument of the same name.
 */
export interface FleetPrompt extends FleetEntry {
  /** The prompt's text (or `promptTemplate`, or both). */
  content?: string;
  /** Fields the agent collects during a call. */
  collectFields?: { name: string; label: string; description?: string; fieldType?: string }[];
  /** An http(s) URL asked for context before a call. */
  contextEndpoint?: string;
  /** The id of a prompt template of the account. */
  promptTemplate?: string;
}

/**
 * A vector database of the fleet (the current API, 2024), which agents name by key in
 * `vectorDatabase`. Set `apiKey` as a secret: `pulumi config set --path --secret fleet.vectorDatabases.<key>.apiKey`.
 */
export interface FleetVectorDatabase extends FleetEntry {
  /** The type: vector_database_pinecone (the default). */
  type?: VectorDatabaseType;
  /** The Pinecone index's name. */
  index: string;
  /** The Pinecone API key (required by the VectorDatabase; keep it a secret config value). */
  apiKey?: string;
  /** The Pinecone environment, e.g. "us-east-1-aws". */
  apiEnvironment: string;
}

/**
 * An account connection of the fleet (the current API, 2024): the team's OpenAI or Twilio account,
 * which agents name in `openaiAccountConnection` and linked lines in `link.connection`. Keep the
 * OpenAI key and the Twilio auth token secret config values (`pulumi config set --path --secret`).
 */
export interface FleetAccountConnection extends FleetEntry {
  /** account_connection_openai or account_connection_twilio. */
  type: AccountConnectionType;
  /** The OpenAI API key (account_connection_openai). */
  openaiApiKey?: string;
  /** The Twilio account SID (account_connection_twilio). */
  twilioAccountSid?: string;
  /** The Twilio auth token (account_connection_twilio). */
  twilioAuthToken?: string;
  /** Numbers of the Twilio account that place outbound calls in turn. */
  steeringPool?: string[];
  /** Whether the Twilio account may present any caller id. */
  accountSupportsAnyCallerId?: boolean;
}

/**
 * An agent of the fleet: references are keys of the fleet or existing objects' UUIDs. The fields
 * from `promptId` on are the current API's (2024); each is the Agent argument of the same name.
 */
export interface FleetAgent extends FleetEntry {
  /** The agent's instructions (exactly one of `prompt` and `promptId`). */
  prompt?: string;
  /** A key of `voices`, or an existing voice's UUID. */
  voice: string;
  /** What it says first when a call connects. */
  initialMessage?: string;
  /** Keys of `actions`, or existing actions' UUIDs. */
  actions?: string[];
  /** A key of `webhooks`, or an existing webhook's UUID. */
  webhook?: string;
  /** A key of `prompts`, or an existing prompt object's UUID, instead of `prompt`. */
  promptId?: string;
  /** The agent's name. */
  name?: string;
  /** The language it speaks. */
  language?: Language;
  /** How readily a caller interrupts it. */
  interruptSensitivity?: InterruptSensitivity;
  /** How soon a pause ends the caller's turn. */
  endpointingSensitivity?: EndpointingSensitivity;
  /** Whether it navigates phone menus. */
  ivrNavigationMode?: IvrNavigationMode;
  /** How fast it converses (greater than 0). */
  conversationSpeed?: number;
  /** Seconds before its opening message. */
  initialMessageDelay?: number;
  /** Seconds of silence before it acts on an idle call. */
  idleTimeSeconds?: number;
  /** Whether it asks if anyone is there on an idle call. */
  askIfHumanPresentOnIdle?: boolean;
  /** Whether the caller's background noise is suppressed. */
  noiseSuppression?: boolean;
  /** Whether called numbers are checked against do-not-call lists. */
  runDoNotCallDetection?: boolean;
  /** An http(s) URL asked for context at the start of each call. */
  contextEndpoint?: string;
  /** The language model's temperature, 0 to 2 (a change replaces the agent). */
  llmTemperature?: number;
  /** The OpenAI model it uses instead of the service's default. */
  openaiModelNameOverride?: string;
  /** The model it falls back to. */
  llmFallback?: { provider: LlmFallbackProvider; modelName: string };
  /** Words the speech recognizer should favour, each with its boost. */
  deepgramKeywords?: Record<string, number>;
  /** A key of `vectorDatabases`, or an existing vector database's UUID. */
  vectorDatabase?: string;
  /** A key of `accountConnections`, or an existing OpenAI account connection's UUID. */
  openaiAccountConnection?: string;
}

/** A number to buy for a line. */
export interface FleetPurchase {
  /** Buy in this 3-digit area code (unset: any area). */
  areaCode?: string;
}

/** A number of the team's own Twilio account, linked to the service (current API only). */
export interface FleetLink {
  /** A key of `accountConnections`, or the UUID of the Twilio account connection whose account owns the number. */
  connection: string;
  /** The number only places calls. */
  outboundOnly?: boolean;
}

/**
 * A line: a number bound to an agent, either one the account owns (`number`), one of the team's
 * Twilio account to link (`number` and `link`), or one to buy (`buy`). A linked number may have
 * no agent: one that only places calls (`link.outboundOnly`), or one linked for later.
 */
export interface FleetLine {
  /** A key of `agents`, or an existing agent's UUID: who answers. Required unless the line has `link`; refused with `link.outboundOnly: true`. */
  agent?: string;
  /** A number the account owns, or with `link` one of the team's Twilio account, E.164 (quote it in YAML: "+15551234567"). */
  number?: string;
  /** Link `number` from the team's Twilio account (a LinkedNumber); destroying the line leaves it linked. */
  link?: FleetLink;
  /** Buy a number for this line instead; destroying the line then cancels it, so it is protected unless `protect: false`. */
  buy?: FleetPurchase;
  /** For a bought number: false lets `destroy` cancel it (default true: protected). */
  protect?: boolean;
  /** Keys this line had before a rename. */
  was?: string[];
}

/** The fleet: each kind keyed by a name that becomes the resource's name. */
export interface FleetSpec {
  /** Voices by name. */
  voices?: Record<string, FleetVoice>;
  /** Actions by name. */
  actions?: Record<string, FleetAction>;
  /** Webhooks by name. */
  webhooks?: Record<string, FleetWebhook>;
  /** Prompt objects by name (the current API). */
  prompts?: Record<string, FleetPrompt>;
  /** Vector databases by name (the current API). */
  vectorDatabases?: Record<string, FleetVectorDatabase>;
  /** Account connections by name (the current API). */
  accountConnections?: Record<string, FleetAccountConnection>;
  /** Agents by name. */
  agents?: Record<string, FleetAgent>;
  /** Lines (number bindings) by name. */
  lines?: Record<string, FleetLine>;
}

/** What a `Fleet` is made from. */
export interface FleetArgs {
  /** The fleet, as validated by `checkFleet` or `fleetFromConfig`. */
  fleet: FleetSpec;
  /**
   * Store every value of the fleet as a secret. `fleetFromConfig` sets it when the config value holds
   * any secret: Pulumi tells a program only that the whole value is secret, not which paths.
   */
  secret?: boolean;
  /** How errors name the value: the config key, `fleet` by default. */
  source?: string;
}
