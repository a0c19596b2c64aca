import type { VoiceWrite } from "../schemas/index.js";
import type { ApiGeneration } from "./generation.js";
import type { ClientParts } from "./client-parts.js";
import type { CollectionPagers } from "./pager.js";
import { voiceBody } from "./wire.js";

/** The client's `voices`: create exactly once, read, update, list, in the generation the voice is written for. */
export function voicesClient(parts: ClientParts, voices: CollectionPagers["voices"]) {
  const { send, encoded, generation, wrote, once } = parts;
  const reads = parts.pages.collection("voices", { list: () => voices.listing(), keyOf: (v) => v.id });
  return {
    // Async, so a refusal before sending is a rejected promise like every other failure.
    create: async (body: VoiceWrite) => {
      const wire = encoded(voiceBody(generation.known() ?? voiceGeneration(body), body), "POST", "/v1/voices/create");
      return once("voices", "voice", wire, (deadline) => send("createVoice", { body: wire, deadline }), voices.listing);
    },
    get: (id: string) => reads.read(id, () => send("getVoice", { query: { id } })),
    update: async (id: string, body: VoiceWrite) =>
      wrote(
        "voices",
        send("updateVoice", {
          query: { id },
          body: encoded(voiceBody(generation.known() ?? voiceGeneration(body), body), "POST", "/v1/voices/update"),
        }),
      ),
    list: voices,
  };
}

/**
 * The generation a voice is written in when nothing has told it yet, from the voice itself: the
 * 2023 shape (a name, pitch and rate) is also a valid 2024 Azure voice, so it is sent as it is; a
 * voice given only a 2024 type's own fields can only be meant for 2024. No request is needed.
 */
function voiceGeneration(v: VoiceWrite): ApiGeneration {
  return v.voice_name !== undefined && v.pitch !== undefined && v.rate !== undefined ? "2023" : "2024";
}
