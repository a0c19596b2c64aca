import { z } from "zod";
import { endpoints, UuidSchema } from "../../client/index.js";
import { defineFunction } from "../kit/function.js";
import { byKey, everyItem, exactlyOne, needsRoutes } from "./read.js";
import { VoiceFound, voiceFound } from "./shapes.js";

/** getVoice: one voice, by id (GET /v1/voices) or by name (every page of /v1/voices/list). */
export const getVoice = defineFunction({
  name: "getVoice",
  doc: "Looks up one voice of the account by its `id`, or by its `voiceName` (exactly one voice must have that name).",
  input: z
    .object({
      id: UuidSchema.optional().meta({ description: "The voice's id (a UUID)." }),
      voiceName: z
        .string()
        .min(1, { error: "must not be empty" })
        .optional()
        .meta({ description: 'The voice\'s name, e.g. "alloy".' }),
    })
    .refine((a) => (a.id === undefined) !== (a.voiceName === undefined), {
      error: "set exactly one of id and voiceName",
    }),
  result: VoiceFound,
  async run(client, { id, voiceName }) {
    if (id !== undefined) {
      await needsRoutes(client, "voices", "getVoice", endpoints.getVoice);
      return voiceFound(await byKey(client.voices.get(id), "getVoice", `voice with id ${id}`));
    }
    const all = await everyItem(client, "voices", "getVoice");
    return voiceFound(exactlyOne(all, (v) => v.voice_name === voiceName, "getVoice", `voice named "${voiceName}"`));
  },
});
