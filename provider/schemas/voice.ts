import { z } from "zod";
import { UuidSchema } from "./common.js";
import { VOICE_TYPES } from "./values.js";

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
