import { z } from "zod";
import { integerIn, LIMITS, textUpTo, UuidSchema, VoiceTypeSchema, VoiceWriteSchema, type Voice, type VoiceWrite } from "../../schemas/index.js";
import { defineKind } from "../kit/kind.js";
import { ownerOutput } from "../kit/owner.js";
import { refusal, slug } from "../kit/pull.js";

/** A voice's base name: its voice name. */
export function voiceBaseName(v: Pick<Voice, "voice_name">): string {
  return slug(v.voice_name) || "voice";
}

/** Voice: voices/update (documented); voices/create and GET /v1/voices where the server has them. */
export const voiceKind = defineKind<Voice, VoiceWrite>()({
  kind: "Voice",
  collection: "voices",
  pull: {
    name: voiceBaseName,
    refuse: (v) => refusal(VoiceWriteSchema.safeParse(v)),
    adopt: (v) => ({ args: { voiceId: v.id, voiceName: v.voice_name, type: v.type, pitch: v.pitch, rate: v.rate }, refs: [] }),
  },
  doc:
    "A voice. Created with voices/create where the service has it; given the id of an existing voice, it manages " +
    "that one through voices/update. Destroy forgets it.",
  example: 'const voice = new Voice("warm", { voiceName: "alloy", pitch: 0, rate: 1 });',
  examples: {
    python: 'voice = voiceagent.Voice("warm", voice_name="alloy", pitch=0, rate=1)',
    go:
      'voice, err := voiceagent.NewVoice(ctx, "warm", &voiceagent.VoiceArgs{\n' +
      '\tVoiceName: pulumi.String("alloy"),\n' +
      "\tPitch:     pulumi.Int(0),\n" +
      "\tRate:      pulumi.Int(1),\n" +
      "})",
  },
  importId: "its id (a UUID)",
  input: z.object({
    voiceName: textUpTo(LIMITS.voiceNameMax).min(1, { error: "must not be empty" }),
    pitch: integerIn(LIMITS.pitch),
    rate: integerIn(LIMITS.rate),
    type: VoiceTypeSchema.default("voice_base"),
    voiceId: UuidSchema.optional(),
  }),
  fields: {
    // Naming the object this resource already manages is no change.
    voiceName: { doc: `The voice's name, e.g. "alloy"; at most ${LIMITS.voiceNameMax} characters.`, wire: "voice_name", read: (v) => v.voice_name },
    pitch: { doc: `Pitch, an integer from ${LIMITS.pitch.min} to ${LIMITS.pitch.max}.`, wire: "pitch", read: (v) => v.pitch },
    rate: { doc: `Speaking rate, an integer from ${LIMITS.rate.min} to ${LIMITS.rate.max}.`, wire: "rate", read: (v) => v.rate },
    type: { doc: "The voice type: voice_base (default), voice_azure, voice_rime or voice_eleven_labs.", wire: "type", read: (v) => v.type },
    voiceId: {
      doc:
        "Manage this existing voice (the interface shows only voices/update) instead of creating one. " +
        "Destroy never resets it. Changing it replaces.",
      wire: null, read: (_v, recorded) => recorded.voiceId, live: (_recorded, id) => id, replaces: true },
  },
  adopt: "voiceId",
  outputs: { userId: ownerOutput() },
  extensionReads: true,
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
