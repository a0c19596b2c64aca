import * as pulumi from "@pulumi/pulumi";
import type { VoiceType } from "../schemas/values.js";
import { VoiceAgentResource } from "./base.js";
import type { Deployed, OutputsOf } from "./outputs.js";

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

/** The outputs of a {@link Voice}: its arguments as deployed, and what it reports. */
export type VoiceOutputs = Deployed<VoiceArgs, { /** The owner's user id. */ userId: string }>;

// The outputs are declared by merging this interface into the class below.
export interface Voice extends OutputsOf<VoiceOutputs> {}

/**
 * A voice. Created with voices/create where the service has it; with `voiceId`, an existing voice
 * is managed through voices/update. Destroy forgets it.
 * @example
 * const voice = new Voice("warm", { voiceName: "alloy", pitch: 0, rate: 1 });
 */
export class Voice extends VoiceAgentResource {
  constructor(name: string, args: VoiceArgs, opts?: pulumi.CustomResourceOptions) {
    super("Voice", name, { userId: undefined, type: undefined, ...args }, opts);
  }
}
