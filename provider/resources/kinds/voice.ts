import { z } from "zod";
import { UuidSchema, VoiceTypeSchema, VoiceWriteSchema, type Voice, type VoiceWrite } from "../../schemas/index.js";
import { defineKind } from "../kit/kind.js";

/** Voice: voices/update (documented); voices/create and GET /v1/voices where the server has them. */
export const voiceKind = defineKind<Voice, VoiceWrite>()({
  kind: "Voice",
  input: z.object({
    voiceName: z.string().min(1, { error: "must not be empty" }),
    pitch: z.number().int({ error: "must be an integer" }),
    rate: z.number().int({ error: "must be an integer" }),
    type: VoiceTypeSchema.default("voice_base"),
    voiceId: UuidSchema.optional(),
  }),
  fields: {
    voiceName: { wire: "voice_name", read: (v) => v.voice_name },
    pitch: { wire: "pitch", read: (v) => v.pitch },
    rate: { wire: "rate", read: (v) => v.rate },
    type: { wire: "type", read: (v) => v.type },
    // Naming the object this resource already manages is no change.
    voiceId: { wire: null, read: (_v, recorded) => recorded.voiceId, live: (_recorded, id) => id, replaces: true },
  },
  adopt: "voiceId",
  outputs: { userId: (v) => v.user_id },
  readRoutes: "voices",
  async create(client, inputs, bodies) {
    const body = VoiceWriteSchema.parse(bodies.create);
    if (inputs.voiceId) return client.voices.update(inputs.voiceId, body);
    if (!(await client.capabilities.has("voices"))) {
      throw new Error(
        "this service cannot create voices (it has no /v1/voices/create) and nothing was sent: " +
          "set voiceId to manage one of the account's existing voices",
      );
    }
    return client.voices.create(body);
  },
  read: (client, id) => client.voices.get(id),
  update: (client, id, _inputs, _recorded, bodies) => client.voices.update(id, VoiceWriteSchema.parse(bodies.update)),
  forgetNote: "the service has no delete for voices; it is removed from the stack and left as it is (never reset)",
});
