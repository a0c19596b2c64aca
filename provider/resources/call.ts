import * as pulumi from "@pulumi/pulumi";
import { assertTokenIsSecret } from "./kit/guard.js";
import { providerShim } from "./kit/shim.js";

const provider = providerShim("Call");

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

/**
 * A phone call. `up` places it, at most once (never during preview, never re-dialled blindly: a
 * lost answer is looked up in the service's call list). A change to who calls whom, the agent or
 * `triggers` ends the old call and places a new one; destroy ends it. `transcript` and
 * `errorMessage` are secret outputs (personal data).
 * @example
 * new Call("smoke-call", { fromNumber: "+15550010001", toNumber: "+15557654321", agent: agent.id, allowedDestinations: ["+1555*"] });
 */
export class Call extends pulumi.dynamic.Resource {
  declare public readonly fromNumber: pulumi.Output<string>;
  declare public readonly toNumber: pulumi.Output<string>;
  declare public readonly agent: pulumi.Output<string>;
  declare public readonly allowedDestinations: pulumi.Output<string[] | undefined>;
  declare public readonly triggers: pulumi.Output<unknown[] | undefined>;
  /** not_started, in_progress, error or ended (as of the last up or refresh). */
  declare public readonly status: pulumi.Output<string>;
  /** The service's error text, if the call failed (secret). */
  declare public readonly errorMessage: pulumi.Output<string | undefined>;
  /** The transcript, once there is one (secret). */
  declare public readonly transcript: pulumi.Output<string | undefined>;
  declare public readonly recordingAvailable: pulumi.Output<boolean>;
  /** The owner's user id. */
  declare public readonly userId: pulumi.Output<string>;

  constructor(name: string, args: CallArgs, opts?: pulumi.CustomResourceOptions) {
    assertTokenIsSecret();
    super(
      provider,
      name,
      { status: undefined, errorMessage: undefined, transcript: undefined, recordingAvailable: undefined, userId: undefined, ...args },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: ["transcript", "errorMessage"] }),
      "voiceagent",
      "Call",
    );
  }
}
