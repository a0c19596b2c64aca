import { z } from "zod";
import { UuidSchema } from "./common.js";
import { VOICE_TYPES } from "./values.js";

/** A known voice type (docs/decisions.md §1). */
export const VoiceTypeSchema = z.enum(VOICE_TYPES);

/** A voice as the service returns it. `type` stays a plain string: a newer server may add types. */
export const VoiceSchema = z.object({
  id: UuidSchema,
  user_id: UuidSchema,
  type: z.string(),
  voice_name: z.string(),
  pitch: z.number().int(),
  rate: z.number().int(),
});
/** A voice. */
export type Voice = z.infer<typeof VoiceSchema>;

/** Body of voices/update and voices/create. */
export const VoiceWriteSchema = z.object({
  type: VoiceTypeSchema.default("voice_base"),
  voice_name: z.string().min(1),
  pitch: z.number().int(),
  rate: z.number().int(),
});
/** Body of voices/update and voices/create, as sent (type may be left to its default). */
export type VoiceWrite = z.input<typeof VoiceWriteSchema>;
