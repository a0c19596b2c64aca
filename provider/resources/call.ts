import * as pulumi from "@pulumi/pulumi";
import { VoiceAgentResource } from "./base.js";
import type { Deployed, OutputsOf } from "./outputs.js";

/** The arguments of a {@link Call}. */
export interface CallArgs {
  /** The caller id: a number the account owns, E.164. Changing it places a new call. */
  fromNumber: pulumi.Input<string>;
  /** The number to dial, E.164. Changing it places a new call. */
  toNumber: pulumi.Input<string>;
  /** The id of the agent that drives the call. Changing it places a new call. */
  agent: pulumi.Input<string>;
  /**
   * Numbers (or prefixes ending in `*`, e.g. "+1555*") this call may dial. A `toNumber` outside
   * them fails at preview, before anything is dialled. Changing it never places a new call.
   */
  allowedDestinations?: pulumi.Input<pulumi.Input<string>[]>;
  /** Any values; a change to them places the call again (as pulumi-command's `triggers`). */
  triggers?: pulumi.Input<pulumi.Input<unknown>[]>;
}

/** What a {@link Call} reports besides its arguments (as of the last up or refresh). */
export interface CallState {
  /** not_started, in_progress, error or ended. */
  status: string;
  /** The service's error text, if the call failed (a secret output: personal data). */
  errorMessage?: string;
  /** The transcript, once there is one (a secret output: personal data). */
  transcript?: string;
  /** Whether a recording exists. */
  recordingAvailable: boolean;
  /** The owner's user id. */
  userId: string;
}

/** The outputs of a {@link Call}: its arguments as deployed, and what it reports. */
export type CallOutputs = Deployed<CallArgs, CallState>;

// The outputs are declared by merging this interface into the class below.
export interface Call extends OutputsOf<CallOutputs> {}

/**
 * A phone call. `up` places it, at most once (never during preview, never re-dialled blindly: a
 * lost answer is looked up in the service's call list). A change to who calls whom, the agent or
 * `triggers` ends the old call and places a new one; destroy ends it. `transcript` and
 * `errorMessage` are secret outputs (personal data).
 * @example
 * new Call("smoke-call", { fromNumber: "+15550010001", toNumber: "+15557654321", agent: agent.id, allowedDestinations: ["+1555*"] });
 */
export class Call extends VoiceAgentResource {
  constructor(name: string, args: CallArgs, opts?: pulumi.CustomResourceOptions) {
    const reported = { status: undefined, errorMessage: undefined, transcript: undefined, recordingAvailable: undefined, userId: undefined };
    // Transcripts and error texts are personal data: encrypted in the state, shown as [secret].
    super("Call", name, { ...reported, ...args }, pulumi.mergeOptions(opts, { additionalSecretOutputs: ["transcript", "errorMessage"] }));
  }
}
