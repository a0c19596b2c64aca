import * as pulumi from "@pulumi/pulumi";
import { assertTokenIsSecret } from "./kit/guard.js";
import { providerShim } from "./kit/shim.js";

const provider = providerShim("PhoneNumber");

/** The arguments of a {@link PhoneNumber}. */
export interface PhoneNumberArgs {
  /** The number, E.164 (e.g. +15551234567): one the account owns. Changing it replaces. */
  number: pulumi.Input<string>;
  /** The id of the agent that answers inbound calls. */
  inboundAgent: pulumi.Input<string>;
  /**
   * @deprecated Removed in 0.2.0: a binding never cancels its number. Buy and cancel numbers with
   * {@link PurchasedNumber}. Only `false` is accepted, so older programs keep working.
   */
  cancelOnDelete?: pulumi.Input<boolean>;
}

/**
 * The inbound binding of a phone number the account owns. Rebinding moves it to another agent in
 * place; destroy unbinds it, unless the program declares the same number in another resource (a
 * rename, a swap, a move into a component), which then owns the binding. It never cancels.
 * @example
 * new PhoneNumber("main-line", { number: "+15550010001", inboundAgent: support.id });
 */
export class PhoneNumber extends pulumi.dynamic.Resource {
  declare public readonly number: pulumi.Output<string>;
  declare public readonly inboundAgent: pulumi.Output<string>;
  /** Whether the number is active (false once cancelled). */
  declare public readonly active: pulumi.Output<boolean>;
  /** The number's UUID on the service (also the resource's id). */
  declare public readonly numberId: pulumi.Output<string>;
  /** The owner's user id. */
  declare public readonly userId: pulumi.Output<string>;

  constructor(name: string, args: PhoneNumberArgs, opts?: pulumi.CustomResourceOptions) {
    assertTokenIsSecret();
    super(provider, name, { active: undefined, numberId: undefined, userId: undefined, ...args }, opts, "voiceagent", "PhoneNumber");
  }
}
