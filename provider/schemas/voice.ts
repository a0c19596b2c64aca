import { z } from "zod";
import { UuidSchema } from "./common.js";
import { openEnum } from "./open-enum.js";
import { PLAY_HT_QUALITIES, PLAY_HT_VERSIONS, VOICE_TYPES } from "./values.js";

/** A known voice type (docs/decisions.md §1, docs/contract-current.md). */
export const VoiceTypeSchema = z.enum(VOICE_TYPES);

/**
 * A voice as the service returns it, in either generation. `type` stays a plain string (a newer
 * server may add types, which must show as drift); each type's own fields are optional here, and
 * the 2024 API may send null for Azure's pitch and rate.
 */
export const VoiceSchema = z.object({
  id: UuidSchema,
  user_id: z.string(),
  type: z.string(),
  /** voice_base, voice_azure. */
  voice_name: z.string().nullish(),
  pitch: z.number().nullish(),
  rate: z.number().nullish(),
  /** voice_eleven_labs, voice_play_ht, voice_vocode: the vendor's voice id. */
  voice_id: z.string().nullish(),
  /** voice_rime. */
  speaker: z.string().nullish(),
  /** voice_eleven_labs, voice_play_ht: the vendor's API key, if the service echoes it (its types say it may). */
  api_key: z.string().nullish(),
  /** voice_play_ht: the vendor account's user id that goes with the key. */
  api_user_id: z.string().nullish(),
  // The 2024 types' optional tuning fields (0.0.48's ElevenLabsVoice, PlayHtVoice, RimeVoice);
  // enumerations open, so a value the service added reads as drift.
  /** voice_eleven_labs. */
  stability: z.number().nullish(),
  similarity_boost: z.number().nullish(),
  optimize_streaming_latency: z.number().nullish(),
  experimental_input_streaming: z.boolean().nullish(),
  /** voice_eleven_labs (any model name), voice_rime (mist, v1). */
  model_id: z.string().nullish(),
  /** voice_play_ht. */
  version: openEnum(PLAY_HT_VERSIONS).nullish(),
  speed: z.number().nullish(),
  quality: openEnum(PLAY_HT_QUALITIES).nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  text_guidance: z.number().nullish(),
  voice_guidance: z.number().nullish(),
  experimental_remove_silence: z.boolean().nullish(),
  /** voice_rime. */
  speed_alpha: z.number().nullish(),
});
/** A voice. */
export type Voice = z.infer<typeof VoiceSchema>;

/**
 * A voice as the provider asks for it, one shape for both generations: the type and every field
 * any type has. The client turns it into the body the service it talks to takes (wire.ts), and
 * says there which type lacks which field.
 */
export const VoiceWriteSchema = z.object({
  type: VoiceTypeSchema.default("voice_base"),
  voice_name: z.string().min(1).optional(),
  pitch: z.number().int().optional(),
  rate: z.number().int().optional(),
  voice_id: z.string().min(1).optional(),
  speaker: z.string().min(1).optional(),
  api_key: z.string().min(1).optional(),
  api_user_id: z.string().min(1).optional(),
  stability: z.number().min(0).max(1).optional(),
  similarity_boost: z.number().min(0).max(1).optional(),
  optimize_streaming_latency: z.number().int().min(0).optional(),
  experimental_input_streaming: z.boolean().optional(),
  model_id: z.string().min(1).optional(),
  version: z.enum(PLAY_HT_VERSIONS).optional(),
  speed: z.number().positive().optional(),
  quality: z.enum(PLAY_HT_QUALITIES).optional(),
  temperature: z.number().min(0).optional(),
  top_p: z.number().min(0).max(1).optional(),
  text_guidance: z.number().min(0).optional(),
  voice_guidance: z.number().min(0).optional(),
  experimental_remove_silence: z.boolean().optional(),
  speed_alpha: z.number().positive().optional(),
});
/** A voice as the provider asks for it (type may be left to its default). */
export type VoiceWrite = z.input<typeof VoiceWriteSchema>;

/** Body of voices/create and voices/update in the interface's generation: a voice_base-shaped voice. */
export const VoiceWrite2023Schema = z.object({
  type: VoiceTypeSchema.default("voice_base"),
  voice_name: z.string().min(1),
  pitch: z.number().int(),
  rate: z.number().int(),
});
/** Body of voices/create and voices/update in the interface's generation. */
export type VoiceWrite2023 = z.infer<typeof VoiceWrite2023Schema>;
