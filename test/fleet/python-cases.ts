// Bad (and good) fleets that the TypeScript check and the Python SDK's check must judge alike
// (test/fleet/python-check.test.ts): each names the hard case it covers.
const U = "0b0c5b4e-8d0a-4c1e-9f6a-1d2e3f4a5b6c";

/** Fleet values by what they exercise. */
export const CASES: Record<string, unknown> = {
  good: {
    voices: {
      warm: { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base" },
      calm: { voiceName: "b", pitch: 1, rate: 2 },
    },
    actions: {
      hangup: { type: "action_end_conversation" },
      transfer: { type: "action_transfer_call", config: { phoneNumber: 15550001111, x: 1 } },
    },
    webhooks: { events: { url: "https://example.test/h", subscriptions: ["event_message"] } },
    agents: { support: { prompt: "Hi", voice: "warm", actions: ["hangup", U], webhook: "events", was: "helpdesk" } },
    lines: {
      main: { agent: "support", number: "+15550001111" },
      extra: { agent: "support", buy: { areaCode: 415 }, was: ["x"] },
    },
  },
  issueExample: {
    voices: { warm: { voiceName: "a", pitch: 0, rate: 0 }, calm: { voiceName: "b", pitch: 0, rate: 0 } },
    agents: { support: { prompt: "p", voice: "warm2" } },
  },
  noVoices: { agents: { support: { prompt: "p", voice: "warm2" } } },
  notName: { agents: { support: { prompt: "p", voice: "not a name!" } } },
  unknownKeys: {
    voicez: {},
    agents: { a: { prompt: "p", voice: U, promt: "x" } },
    lines: { l: { agent: "a", buy: { area: "415" } } },
  },
  wrongTypes: { voices: { v: { voiceName: 3, pitch: "1", rate: 1.5, type: "voice_nope" } }, webhooks: "x", agents: [] },
  required: { voices: { v: {} }, webhooks: { w: { url: "ftp://x", subscriptions: [] } }, agents: { a: {} } },
  // The current API's voice types take their own fields (no pitch or rate); voice_base, the type
  // when none is set, still needs voiceName, pitch and rate, also beside an unknown key.
  currentVoices: {
    voices: {
      rime: { type: "voice_rime", speaker: "river", speedAlpha: 1.2 },
      eleven: { type: "voice_eleven_labs", vendorVoiceId: "rachel", apiKey: "k", stability: 0.5, modelId: "m" },
      play: { type: "voice_play_ht", vendorVoiceId: "p", version: "3", quality: 5 },
      azure: { type: "voice_azure", voiceName: "en-US-JennyNeural" },
      base: { voiceName: "alloy" },
      baseTyped: { type: "voice_base", pitch: 0, rate: 1, speakr: "x" },
    },
  },
  emptyStrings: { agents: { a: { prompt: "", voice: "", actions: [""], webhook: "" } } },
  lines: {
    agents: { a: { prompt: "p", voice: U } },
    lines: {
      both: { agent: "a", number: "+15550001111", buy: {} },
      neither: { agent: "a" },
      prot: { agent: "a", number: "+15550001112", protect: true },
      badNum: { agent: "a", number: "555" },
      area: { agent: "a", buy: { areaCode: "41" } },
      dup: { agent: "a", number: 15550001111 },
      mixed: { agent: "a", number: "555", buy: {} },
      mixedUnknown: { agent: "a", number: "+15550001113", buy: {}, extra: 1 },
      mixedType: { agent: 3, number: "+15550001114", buy: {} },
      mixedBuy: { agent: "a", number: "+15550001115", buy: { areaCode: "1" } },
      linked: { agent: "a", number: "+15550001116", link: { connection: U, outboundOnly: true } },
      linkAndBuy: { agent: "a", link: { connection: U }, buy: {} },
      linkBad: { agent: "a", number: "+15550001117", link: { connection: "nope", outbund: true } },
      linkNoNumber: { agent: "a", link: { connection: U } },
      // A linked number without an agent: outbound only, or linked for later; a binding needs one.
      outbound: { number: "+15550001118", link: { connection: U, outboundOnly: true } },
      forLater: { number: "+15550001119", link: { connection: U } },
      noAgent: { number: "+15550001120" },
      boughtNoAgent: { buy: {} },
    },
  },
  keysAndIds: {
    voices: {
      "bad key!": { voiceName: "a", pitch: 0, rate: 0 },
      "a.b": { voiceName: "a", pitch: 0, rate: 0, id: U },
      c: { voiceName: "a", pitch: 0, rate: 0, id: U },
      d: { voiceName: "a", pitch: 0, rate: 0, id: "nope" },
    },
  },
  renames: {
    agents: {
      a: { prompt: "p", voice: U, was: ["b", "old"] },
      b: { prompt: "p", voice: U, was: "old" },
      c: { prompt: "p", voice: U, was: [3, "bad key!"] },
    },
  },
  currentAgent: {
    agents: {
      es: {
        promptId: U,
        voice: U,
        name: "Recepción",
        language: "es",
        interruptSensitivity: "high",
        endpointingSensitivity: "relaxed",
        ivrNavigationMode: "off",
        conversationSpeed: 1.2,
        initialMessageDelay: 0.5,
        idleTimeSeconds: 15,
        askIfHumanPresentOnIdle: true,
        noiseSuppression: false,
        runDoNotCallDetection: true,
        contextEndpoint: "https://ctx.example.test/es",
        llmTemperature: 0.4,
        openaiModelNameOverride: "gpt-4o",
        llmFallback: { provider: "azure", modelName: "gpt-4o-mini" },
        deepgramKeywords: { Ibuprofeno: 2 },
        vectorDatabase: U,
        openaiAccountConnection: U,
      },
    },
  },
  currentAgentBad: {
    agents: {
      es: {
        promptId: "nope",
        voice: U,
        language: "tlh",
        ivrNavigationMode: "on",
        idleTimeSeconds: 1.5,
        noiseSuppression: "yes",
        contextEndpoint: "ftp://x",
        llmFallback: { provider: "anthropic", model: "x" },
        deepgramKeywords: { Ibuprofeno: "2", " ": 1 },
        vectorDatabase: "nope",
      },
    },
  },
  // Issue 35: the current API's sections, an agent and a linked line naming them by key, and
  // references to keys the fleet does not declare.
  currentObjects: {
    voices: { warm: { voiceName: "alloy", pitch: 0, rate: 1 } },
    prompts: { booking: { content: "You book visits.", collectFields: [{ name: "email", label: "Email" }] } },
    vectorDatabases: { faq: { index: "clinic-faq", apiKey: "k", apiEnvironment: "us-east-1-aws" } },
    accountConnections: {
      openai: { type: "account_connection_openai", openaiApiKey: "sk" },
      twilio: {
        type: "account_connection_twilio",
        twilioAccountSid: "AC1",
        twilioAuthToken: "t",
        steeringPool: ["+15550001111"],
      },
    },
    agents: {
      desk: { voice: "warm", promptId: "booking", vectorDatabase: "faq", openaiAccountConnection: "openai" },
      typo: { voice: "warm", prompt: "p", vectorDatabase: "fqa", openaiAccountConnection: "opneai" },
    },
    lines: {
      own: { agent: "desk", number: "+15550002222", link: { connection: "twilio" } },
      bad: { agent: "desk", number: "+15550003333", link: { connection: "twillio" } },
    },
  },
  currentBadShapes: {
    vectorDatabases: { faq: { index: "", apiEnvironment: "x", type: "vector_database_chroma" } },
    accountConnections: { c: { type: "account_connection_azure", steeringPool: ["555"] } },
    prompts: { p: { collectFields: [{ name: "email" }], contextEndpoint: "ftp://x" } },
  },
  emptySections: { voices: null, agents: null },
  notAMap: "a string",
  nothing: null,
};
