import * as pulumi from "@pulumi/pulumi";
import { assertTokenIsSecret } from "./kit/guard.js";
import { providerShim } from "./kit/shim.js";

const provider = providerShim("Call");

/** The arguments of a {@link Call}. */
export interface CallArgs {
  /** The caller id: a number the account owns, E.164. */
  fromNumber: pulumi.Input<string>;
  /** The number to dial, E.164. */
  toNumber: pulumi.Input<string>;
  /** The id of the agent that drives the call. */
  agent: pulumi.Input<string>;
  /**
   * Numbers (or prefixes ending in `*`, e.g. "+1555*") this call may dial. A `toNumber` outside
   * them fails at preview, before anything is dialled.
   */
  allowedDestinations?: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * A phone call. `up` places it (never during preview, never retried); any change replaces it,
 * ending the old call first; destroy ends it.
 * @example
 * new Call("smoke-call", { fromNumber: "+15550010001", toNumber: "+15557654321", agent: agent.id, allowedDestinations: ["+1555*"] });
 */
export class Call extends pulumi.dynamic.Resource {
  declare public readonly fromNumber: pulumi.Output<string>;
  declare public readonly toNumber: pulumi.Output<string>;
  declare public readonly agent: pulumi.Output<string>;
  /** not_started, in_progress, error or ended (as of the last up or refresh). */
  declare public readonly status: pulumi.Output<string>;
  declare public readonly errorMessage: pulumi.Output<string | undefined>;
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
      opts,
      "voiceagent",
      "Call",
    );
  }
}
