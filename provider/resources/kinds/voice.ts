import { z } from "zod";
import type { ApiGeneration } from "../../client/index.js";
import {
  integerIn,
  LIMITS,
  PLAY_HT_QUALITIES,
  PLAY_HT_VERSIONS,
  RIME_MODEL_IDS,
  textUpTo,
  UuidSchema,
  VOICE_TYPES_2024,
  VoiceTypeSchema,
  VoiceWriteSchema,
  type Voice,
  type VoiceWrite,
} from "../../schemas/index.js";
import { inputFailure, type CheckFailure } from "../kit/check.js";
import { defineKind } from "../kit/kind.js";
import { ownerOutput } from "../kit/owner.js";
import { present, refusal, slug } from "../kit/pull.js";
import { ExplainedError } from "../kit/errors.js";

/** A voice's base name: its voice name (or, for types without one, the vendor's voice id or the speaker). */
export function voiceBaseName(v: Pick<Voice, "voice_name" | "voice_id" | "speaker">): string {
  return slug(v.voice_name ?? v.voice_id ?? v.speaker ?? "") || "voice";
}

/** A fraction from 0 to 1; the message names the range, never the value. */
const fraction = z.number().min(0, { error: "must be between 0 and 1" }).max(1, { error: "must be between 0 and 1" });

const input = z.object({
  type: VoiceTypeSchema.default("voice_base"),
  voiceName: textUpTo(LIMITS.voiceNameMax).min(1, { error: "must not be empty" }).optional(),
  pitch: integerIn(LIMITS.pitch).optional(),
  rate: integerIn(LIMITS.rate).optional(),
  vendorVoiceId: z.string().min(1, { error: "must not be empty" }).optional(),
  speaker: z.string().min(1, { error: "must not be empty" }).optional(),
  apiKey: z.string().min(1, { error: "must not be empty" }).optional(),
  apiUserId: z.string().min(1, { error: "must not be empty" }).optional(),
  voiceId: UuidSchema.optional(),
  // The 2024 types' optional tuning fields, as 0.0.48's voice params type them; the ranges are
  // the vendors' (a fraction from 0 to 1, a positive speed), the service states none of its own.
  stability: fraction.optional(),
  similarityBoost: fraction.optional(),
  optimizeStreamingLatency: z
    .number()
    .int({ error: "must be an integer" })
    .min(0, { error: "must be 0 or more" })
    .optional(),
  experimentalInputStreaming: z.boolean().optional(),
  modelId: z.string().min(1, { error: "must not be empty" }).optional(),
  version: z.enum(PLAY_HT_VERSIONS).optional(),
  speed: z.number().positive({ error: "must be greater than 0" }).optional(),
  quality: z.enum(PLAY_HT_QUALITIES).optional(),
  temperature: z.number().min(0, { error: "must be 0 or more" }).optional(),
  topP: fraction.optional(),
  textGuidance: z.number().min(0, { error: "must be 0 or more" }).optional(),
  voiceGuidance: z.number().min(0, { error: "must be 0 or more" }).optional(),
  experimentalRemoveSilence: z.boolean().optional(),
  speedAlpha: z.number().positive({ error: "must be greater than 0" }).optional(),
});
type VoiceInputs = Partial<z.output<typeof input>>;
/** ElevenLabs' tuning fields (the 2024 API). */
const ELEVEN_LABS_TUNING = [
  "stability",
  "similarityBoost",
  "optimizeStreamingLatency",
  "experimentalInputStreaming",
  "modelId",
] as const;
/** Play.ht's tuning fields (the 2024 API). */
const PLAY_HT_TUNING = [
  "version",
  "speed",
  "quality",
  "temperature",
  "topP",
  "textGuidance",
  "voiceGuidance",
  "experimentalRemoveSilence",
] as const;
/** Rime's tuning fields (the 2024 API). */
const RIME_TUNING = ["speedAlpha", "modelId"] as const;
type TypeField =
  | "voiceName"
  | "pitch"
  | "rate"
  | "vendorVoiceId"
  | "speaker"
  | "apiKey"
  | "apiUserId"
  | (typeof ELEVEN_LABS_TUNING)[number]
  | (typeof PLAY_HT_TUNING)[number]
  | (typeof RIME_TUNING)[number];
/** Every type's own fields, for refusing those of another type. */
const ALL_TYPE_FIELDS: TypeField[] = [
  ...new Set<TypeField>([
    "voiceName",
    "pitch",
    "rate",
    "vendorVoiceId",
    "speaker",
    "apiKey",
    "apiUserId",
    ...ELEVEN_LABS_TUNING,
    ...PLAY_HT_TUNING,
    ...RIME_TUNING,
  ]),
];

/**
 * Each voice type's own fields: the ones it needs, and the ones it may have (docs/contract-current.md).
 * voice_base is the interface's (2023) only; the other five are the current API's (2024).
 */
const TYPE_FIELDS: Record<z.output<typeof VoiceTypeSchema>, { needs: TypeField[]; may: TypeField[] }> = {
  voice_base: { needs: ["voiceName", "pitch", "rate"], may: [] },
  voice_azure: { needs: ["voiceName"], may: ["pitch", "rate"] },
  voice_eleven_labs: { needs: ["vendorVoiceId"], may: ["apiKey", ...ELEVEN_LABS_TUNING] },
  voice_play_ht: { needs: ["vendorVoiceId"], may: ["apiKey", "apiUserId", ...PLAY_HT_TUNING] },
  voice_rime: { needs: ["speaker"], may: [...RIME_TUNING] },
  voice_vocode: { needs: [], may: ["vendorVoiceId"] },
};

/** What voice_base (the 2023 shape, the type when none is set) needs: the fleet's check refuses an entry without them too. */
export const VOICE_BASE_NEEDS: readonly string[] = TYPE_FIELDS.voice_base.needs;

/** The fields every type takes on the 2023 API, which has one voice shape. */
const SHAPE_2023: TypeField[] = ["voiceName", "pitch", "rate"];

/**
 * The type's missing fields and the fields of other types, caught at preview before anything is
 * sent. Without a generation (not known yet) either generation's form of the type passes; with
 * one, only that generation's.
 */
function typeFields(inputs: VoiceInputs, gen?: ApiGeneration): CheckFailure[] {
  const type = inputs.type ?? "voice_base";
  const failures: CheckFailure[] = [];
  const in2023 = () => {
    for (const f of SHAPE_2023)
      if (inputs[f] === undefined) failures.push(inputFailure(`${f} is required for a voice on the 2023 API`));
    for (const f of ALL_TYPE_FIELDS.filter((f) => !SHAPE_2023.includes(f))) {
      if (inputs[f] !== undefined)
        failures.push(
          inputFailure(`${f} is not a field of a voice on the 2023 API (it takes voiceName, pitch and rate)`),
        );
    }
    return failures;
  };
  if (gen === "2023") return in2023();
  if (
    gen === undefined &&
    type !== "voice_vocode" &&
    SHAPE_2023.every((f) => inputs[f] !== undefined) &&
    in2023().length === 0
  )
    return [];
  failures.length = 0;
  const { needs, may } = TYPE_FIELDS[type];
  for (const f of needs)
    if (inputs[f] === undefined) failures.push(inputFailure(`${f} is required for a ${type} voice`));
  for (const f of ALL_TYPE_FIELDS) {
    if (inputs[f] !== undefined && !needs.includes(f) && !may.includes(f)) {
      failures.push(inputFailure(`${f} is not a field of a ${type} voice: remove it, or choose a type that has it`));
    }
  }
  // ElevenLabs names its models freely; Rime has two.
  const model = inputs.modelId;
  if (type === "voice_rime" && model !== undefined && !RIME_MODEL_IDS.some((m) => m === model))
    failures.push(inputFailure(`modelId of a voice_rime voice must be one of ${RIME_MODEL_IDS.join(", ")}`));
  return failures;
}

/** Voice: voices/update (documented); voices/create and GET /v1/voices where the server has them. */
export const voiceKind = defineKind<Voice, VoiceWrite>()({
  kind: "Voice",
  collection: "voices",
  pull: {
    name: voiceBaseName,
    // The current API sends null for the fields a type lacks (a Rime voice's voice_name): not set.
    refuse: (v) =>
      refusal(VoiceWriteSchema.safeParse(Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null)))),
    // Each voice type has its own fields (docs/contract-current.md): only those the service holds.
    adopt: (v) => ({
      args: {
        voiceId: v.id,
        type: v.type,
        ...present({
          voiceName: v.voice_name,
          pitch: v.pitch,
          rate: v.rate,
          vendorVoiceId: v.voice_id,
          speaker: v.speaker,
          stability: v.stability,
          similarityBoost: v.similarity_boost,
          optimizeStreamingLatency: v.optimize_streaming_latency,
          experimentalInputStreaming: v.experimental_input_streaming,
          modelId: v.model_id,
          version: v.version,
          speed: v.speed,
          quality: v.quality,
          temperature: v.temperature,
          topP: v.top_p,
          textGuidance: v.text_guidance,
          voiceGuidance: v.voice_guidance,
          experimentalRemoveSilence: v.experimental_remove_silence,
          speedAlpha: v.speed_alpha,
        }),
      },
      refs: [],
    }),
  },
  doc:
    "A voice. Created with voices/create where the service has it; given the id of an existing voice, it manages " +
    "that one through voices/update. Destroy forgets it. Each type has its own fields: voice_base (the 2023 API) " +
    "voiceName, pitch and rate; voice_azure voiceName (pitch, rate optional); voice_eleven_labs vendorVoiceId " +
    "(apiKey, stability, similarityBoost, optimizeStreamingLatency, modelId, experimentalInputStreaming optional); " +
    "voice_play_ht vendorVoiceId (apiKey, apiUserId, version, speed, quality, temperature, topP, textGuidance, " +
    "voiceGuidance, experimentalRemoveSilence optional); voice_rime speaker (speedAlpha, modelId optional); " +
    'voice_vocode none (vendorVoiceId "joe"). A vendor\'s apiKey and apiUserId are always secret.',
  importId: "its id (a UUID)",
  input,
  fields: {
    // Naming the object this resource already manages is no change.
    voiceName: {
      doc: `The voice's name, e.g. "alloy" (voice_base, voice_azure); at most ${LIMITS.voiceNameMax} characters.`,
      wire: "voice_name",
      read: (v) => v.voice_name ?? undefined,
    },
    pitch: {
      doc: `Pitch, an integer from ${LIMITS.pitch.min} to ${LIMITS.pitch.max} (voice_base; optional for voice_azure).`,
      wire: "pitch",
      read: (v) => v.pitch ?? undefined,
      unset: "service-decides",
    },
    rate: {
      doc: `Speaking rate, an integer from ${LIMITS.rate.min} to ${LIMITS.rate.max} (voice_base; optional for voice_azure).`,
      wire: "rate",
      read: (v) => v.rate ?? undefined,
      unset: "service-decides",
    },
    type: {
      doc:
        "The voice type: voice_base (default; the 2023 API), or voice_azure, voice_eleven_labs, voice_play_ht, " +
        "voice_rime, voice_vocode (the 2024 API).",
      wire: "type",
      read: (v) => v.type,
    },
    vendorVoiceId: {
      doc: 'The vendor\'s voice id (voice_eleven_labs, voice_play_ht; voice_vocode: "joe", the default).',
      wire: "voice_id",
      read: (v) => v.voice_id ?? undefined,
      unset: "service-decides",
    },
    speaker: { doc: "The speaker (voice_rime).", wire: "speaker", read: (v) => v.speaker ?? undefined },
    // A credential: secret everywhere, and write-only (kind.ts `Answer`): the service may echo it,
    // mask it or leave it out (its types make it optional), so it reads back as the value sent and
    // refresh shows no drift. Left unset, whatever the service holds stays (the 2024 API cannot
    // clear it: no null).
    apiKey: {
      doc:
        "The vendor's API key (voice_eleven_labs, voice_play_ht; the 2024 API), always secret. Unset: the service uses " +
        "the account's own. Write-only: the service may mask it or leave it out of its answers, so it is compared with " +
        "the value last sent, and a key changed outside Pulumi is not seen (set it here to change it).",
      wire: "api_key",
      imported: (v) => v.api_key ?? undefined,
      unset: "service-decides",
      secret: true,
    },
    apiUserId: {
      doc:
        "The Play.ht user id that goes with apiKey (voice_play_ht; the 2024 API), always secret. Write-only, as apiKey: " +
        "compared with the value last sent.",
      wire: "api_user_id",
      imported: (v) => v.api_user_id ?? undefined,
      unset: "service-decides",
      secret: true,
    },
    // The 2024 types' tuning fields. Left unset, the service's value stands (its update takes no
    // null): no difference, nothing sent.
    stability: {
      doc: "Voice stability, from 0 to 1 (voice_eleven_labs; the 2024 API).",
      wire: "stability",
      read: (v) => v.stability ?? undefined,
      unset: "service-decides",
    },
    similarityBoost: {
      doc: "How closely it keeps to the original voice, from 0 to 1 (voice_eleven_labs; the 2024 API).",
      wire: "similarity_boost",
      read: (v) => v.similarity_boost ?? undefined,
      unset: "service-decides",
    },
    optimizeStreamingLatency: {
      doc: "ElevenLabs' streaming latency optimization level, an integer, 0 or more (voice_eleven_labs; the 2024 API).",
      wire: "optimize_streaming_latency",
      read: (v) => v.optimize_streaming_latency ?? undefined,
      unset: "service-decides",
    },
    experimentalInputStreaming: {
      doc: "Whether text is streamed to ElevenLabs as it is generated (voice_eleven_labs; the 2024 API).",
      wire: "experimental_input_streaming",
      read: (v) => v.experimental_input_streaming ?? undefined,
      unset: "service-decides",
    },
    modelId: {
      doc: `The vendor's model: any ElevenLabs model id (voice_eleven_labs), or ${RIME_MODEL_IDS.join(", ")} (voice_rime); the 2024 API.`,
      wire: "model_id",
      read: (v) => v.model_id ?? undefined,
      unset: "service-decides",
    },
    version: {
      doc: `The Play.ht engine version: ${PLAY_HT_VERSIONS.join(", ")} (voice_play_ht; the 2024 API).`,
      wire: "version",
      read: (v) => v.version ?? undefined,
      unset: "service-decides",
    },
    speed: {
      doc: "Speaking speed, greater than 0 (voice_play_ht; the 2024 API).",
      wire: "speed",
      read: (v) => v.speed ?? undefined,
      unset: "service-decides",
    },
    quality: {
      doc: `The Play.ht quality: ${PLAY_HT_QUALITIES.join(", ")} (voice_play_ht; the 2024 API).`,
      wire: "quality",
      read: (v) => v.quality ?? undefined,
      unset: "service-decides",
    },
    temperature: {
      doc: "Play.ht's sampling temperature, 0 or more (voice_play_ht; the 2024 API).",
      wire: "temperature",
      read: (v) => v.temperature ?? undefined,
      unset: "service-decides",
    },
    topP: {
      doc: "Play.ht's nucleus sampling, from 0 to 1 (voice_play_ht; the 2024 API).",
      wire: "top_p",
      read: (v) => v.top_p ?? undefined,
      unset: "service-decides",
    },
    textGuidance: {
      doc: "How closely Play.ht follows the text, 0 or more (voice_play_ht; the 2024 API).",
      wire: "text_guidance",
      read: (v) => v.text_guidance ?? undefined,
      unset: "service-decides",
    },
    voiceGuidance: {
      doc: "How closely Play.ht keeps to the voice, 0 or more (voice_play_ht; the 2024 API).",
      wire: "voice_guidance",
      read: (v) => v.voice_guidance ?? undefined,
      unset: "service-decides",
    },
    experimentalRemoveSilence: {
      doc: "Whether Play.ht trims silence from its audio (voice_play_ht; the 2024 API).",
      wire: "experimental_remove_silence",
      read: (v) => v.experimental_remove_silence ?? undefined,
      unset: "service-decides",
    },
    speedAlpha: {
      doc: "Rime's speaking speed factor, greater than 0 (voice_rime; the 2024 API).",
      wire: "speed_alpha",
      read: (v) => v.speed_alpha ?? undefined,
      unset: "service-decides",
    },
    voiceId: {
      doc:
        "Manage this existing voice (the interface shows only voices/update) instead of creating one. " +
        "Destroy never resets it. Changing it replaces.",
      wire: null,
      read: (_v, recorded) => recorded.voiceId,
      compare: { live: (_recorded, id) => id },
      change: "replaces",
    },
  },
  adopt: "voiceId",
  outputs: { userId: ownerOutput() },
  extensionReads: true,
  refine: (inputs) => typeFields(inputs),
  generationCheck: (gen, _olds, news) => {
    // A type unknown at preview is checked once known (news holds the known values only).
    if (news.type === undefined) return {};
    // voice_base is also the type left unset: said here, at preview, not by the create at up.
    if (gen === "2024" && news.type === "voice_base")
      return {
        failures: [
          inputFailure(
            `type: voice_base (the type when none is set) does not exist on the 2024 API: set type to one of ${VOICE_TYPES_2024.join(", ")}` +
              " (set voiceagent:api 2023 if the service speaks the interface)",
          ),
        ],
      };
    return { failures: typeFields(news, gen) };
  },
  async create({ client, inputs, bodies }) {
    const body = VoiceWriteSchema.parse(bodies.create);
    if (inputs.voiceId) return client.voices.update(inputs.voiceId, body);
    if (!(await client.capabilities.has("voices"))) {
      throw new ExplainedError(
        "this service cannot create voices (it has no /v1/voices/create) and nothing was sent: " +
          "set voiceId to manage one of the account's existing voices",
        { code: "E_UNSUPPORTED", mayHaveActed: false },
      );
    }
    return client.voices.create(body);
  },
  read: ({ client, id }) => client.voices.get(id),
  update: ({ client, id, bodies }) => client.voices.update(id, VoiceWriteSchema.parse(bodies.update)),
  forgetNote: "the service has no delete for voices; it is removed from the stack and left as it is (never reset)",
});
