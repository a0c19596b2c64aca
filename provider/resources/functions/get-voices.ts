import { z } from "zod";
import { defineFunction } from "../kit/function.js";
import { everyItem, readable } from "./read.js";
import { VoiceFound, voiceFound } from "./shapes.js";

/** getVoices: the account's voices (every page of /v1/voices/list), filtered. */
export const getVoices = defineFunction({
  name: "getVoices",
  doc: "Lists the account's voices, optionally only those of one `type` or one `voiceName`.",
  input: z.object({
    type: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "Only voices of this type (voice_base, voice_azure, ...)." }),
    voiceName: z.string().min(1).optional().meta({ description: "Only voices with this name." }),
  }),
  result: z.object({
    voices: z.array(VoiceFound).meta({ description: "The matching voices, in the order the service lists them." }),
  }),
  async run(client, { type, voiceName }) {
    const all = readable(await everyItem(client, "voices", "getVoices"));
    return {
      voices: all
        .filter(
          (v) => (type === undefined || v.type === type) && (voiceName === undefined || v.voice_name === voiceName),
        )
        .map(voiceFound),
    };
  },
});
