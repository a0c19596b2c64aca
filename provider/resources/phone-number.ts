import * as pulumi from "@pulumi/pulumi";
import { assertTokenIsSecret } from "./kit/guard.js";
import { providerShim } from "./kit/shim.js";

const provider = providerShim("PhoneNumber");

/** The arguments of a {@link PhoneNumber}. */
export interface PhoneNumberArgs {
  /** The number, E.164 (e.g. +15551234567). It is the resource's id: changing it replaces. */
  number: pulumi.Input<string>;
  /** The id of the agent that answers inbound calls. */
  inboundAgent: pulumi.Input<string>;
  /**
   * Cancel the number with numbers/cancel when the resource is destroyed (default false: destroy
   * only unbinds). Never runs during a replacement. A cancelled number cannot be bound again.
   */
  cancelOnDelete?: pulumi.Input<boolean>;
}

/**
 * The inbound binding of a phone number the account owns. Rebinding moves it to another agent in
 * place; destroy unbinds it.
 * @example
 * new PhoneNumber("main-line", { number: "+15550010001", inboundAgent: support.id });
 */
export class PhoneNumber extends pulumi.dynamic.Resource {
  declare public readonly number: pulumi.Output<string>;
  declare public readonly inboundAgent: pulumi.Output<string>;
  declare public readonly cancelOnDelete: pulumi.Output<boolean>;
  /** Whether the number is active (false once cancelled). */
  declare public readonly active: pulumi.Output<boolean>;
  /** The number's UUID on the service. */
  declare public readonly numberId: pulumi.Output<string>;
  /** The owner's user id. */
  declare public readonly userId: pulumi.Output<string>;
  /** The bound agent's prompt, as the service embeds it. */
  declare public readonly inboundAgentPrompt: pulumi.Output<string | undefined>;

  constructor(name: string, args: PhoneNumberArgs, opts?: pulumi.CustomResourceOptions) {
    assertTokenIsSecret();
    super(
      provider,
      name,
      { active: undefined, numberId: undefined, userId: undefined, inboundAgentPrompt: undefined, ...args },
      opts,
      "voiceagent",
      "PhoneNumber",
    );
  }
}
