import { VOICE_TYPES, type VoiceType } from "pulumi-voiceagent/schemas";
import { fieldOf } from "../resource-view.js";
import { resourceRule } from "../rule.js";

/** The rule's settings. */
export interface VoiceTypesConfig {
  /** The voice types (each is one vendor's: voice_azure, voice_eleven_labs, ...) the team uses. */
  allowedTypes: VoiceType[];
}

/** A Voice without a type is a voice_base (the provider's default, kinds/voice.ts). */
const DEFAULT_TYPE: VoiceType = "voice_base";

/** Voices only from the vendors the team has contracts with: not configured, any type passes. */
export const voiceTypes = resourceRule<VoiceTypesConfig>({
  name: "voiceagent-voice-types",
  kind: "Voice",
  description: "A Voice's type (its vendor) must be one that allowedTypes lists.",
  enforcementLevel: "mandatory",
  config: {
    allowedTypes: {
      type: "array",
      items: { type: "string", enum: [...VOICE_TYPES] },
      description: "Voice types, each one vendor's (voice_azure, voice_eleven_labs, voice_play_ht, ...); unset: any.",
    },
  },
  check: ({ props }, { allowedTypes }) => {
    const f = fieldOf(props, "type");
    if (!allowedTypes || f.state === "unknown") return [];
    const type = f.state === "known" ? String(f.value) : DEFAULT_TYPE;
    return allowedTypes.some((t) => t === type)
      ? []
      : [`type ${type} is not one of allowedTypes (${allowedTypes.join(", ") || "none"})`];
  },
});
