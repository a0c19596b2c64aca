import * as pulumi from "@pulumi/pulumi";
import type { VoiceType } from "../schemas/values.js";
import { assertTokenIsSecret } from "./kit/guard.js";
import { providerShim } from "./kit/shim.js";

const provider = providerShim("Voice");

/** The arguments of a {@link Voice}. */
export interface VoiceArgs {
  /** The voice's name, e.g. "alloy". */
  voiceName: pulumi.Input<string>;
  /** Pitch, an integer. */
  pitch: pulumi.Input<number>;
  /** Speaking rate, an integer. */
  rate: pulumi.Input<number>;
  /** voice_base (default), voice_azure, voice_rime or voice_eleven_labs. */
  type?: pulumi.Input<VoiceType>;
  /**
   * Manage this existing voice (the interface shows only voices/update) instead of creating one.
   * Destroy never resets it. Changing it replaces.
   */
  voiceId?: pulumi.Input<string>;
}

/**
 * A voice. Created with voices/create where the service has it; with `voiceId`, an existing voice
 * is managed through voices/update. Destroy forgets it.
 * @example
 * const voice = new Voice("warm", { voiceName: "alloy", pitch: 0, rate: 1 });
 */
export class Voice extends pulumi.dynamic.Resource {
  declare public readonly voiceName: pulumi.Output<string>;
  declare public readonly pitch: pulumi.Output<number>;
  declare public readonly rate: pulumi.Output<number>;
  declare public readonly type: pulumi.Output<string>;
  declare public readonly voiceId: pulumi.Output<string | undefined>;
  /** The owner's user id. */
  declare public readonly userId: pulumi.Output<string>;

  constructor(name: string, args: VoiceArgs, opts?: pulumi.CustomResourceOptions) {
    assertTokenIsSecret();
    super(provider, name, { userId: undefined, type: undefined, ...args }, opts, "voiceagent", "Voice");
  }
}
