import { z } from "zod";
import { UuidSchema, VoiceTypeSchema, type Voice } from "../../schemas/index.js";
import { isRouteMissing } from "../kit/errors.js";
import { compact, found, type Props, type ResourceSpec } from "../kit/spec.js";

const shape = {
  voiceName: z.string().min(1, { error: "must not be empty" }),
  pitch: z.number().int({ error: "must be an integer" }),
  rate: z.number().int({ error: "must be an integer" }),
  type: VoiceTypeSchema.default("voice_base"),
  voiceId: UuidSchema.optional(),
};

function outsOf(v: Voice, inputs: Props): Props {
  return compact({
    voiceName: v.voice_name,
    pitch: v.pitch,
    rate: v.rate,
    type: v.type,
    voiceId: inputs.voiceId,
    userId: v.user_id,
  });
}

const body = (p: Props) => ({
  type: p.type as z.infer<typeof VoiceTypeSchema>,
  voice_name: p.voiceName as string,
  pitch: p.pitch as number,
  rate: p.rate as number,
});

/** Voice: voices/update (documented); voices/create and GET /v1/voices where the server has them. */
export const voiceSpec: ResourceSpec = {
  kind: "Voice",
  shape,
  fields: { voice_name: "voiceName", pitch: "pitch", rate: "rate", type: "type" },
  diff: {
    fields: ["voiceName", "pitch", "rate", "type", "voiceId"],
    replaceOn: ["voiceId"],
    normalize: (p) => ({ ...p, type: p.type ?? "voice_base" }),
  },
  async create(client, inputs) {
    if (inputs.voiceId) {
      const v = await client.voices.update(inputs.voiceId as string, body(inputs));
      return { id: v.id, outs: outsOf(v, inputs) };
    }
    try {
      const v = await client.voices.create(body(inputs));
      return { id: v.id, outs: outsOf(v, inputs) };
    } catch (err) {
      if (isRouteMissing(err)) {
        throw new Error("this service cannot create voices (no /v1/voices/create): set voiceId to manage an existing voice", {
          cause: err,
        });
      }
      throw err;
    }
  },
  async read(client, id, props) {
    return found(outsOf(await client.voices.get(id), props), ["userId"]);
  },
  async update(client, id, _olds, news) {
    return outsOf(await client.voices.update(id, body(news)), news);
  },
  forgetNote: "the service has no delete for voices; it is removed from the stack and left as it is (never reset)",
};
