import * as pulumi from "@pulumi/pulumi";
import { assertTokenIsSecret } from "./kit/guard.js";
import { providerShim } from "./kit/shim.js";

const provider = providerShim("PurchasedNumber");

/** The arguments of a {@link PurchasedNumber}. */
export interface PurchasedNumberArgs {
  /** Buy a number in this 3-digit area code (e.g. "415"). Unset: any area. Changing it replaces. */
  areaCode?: pulumi.Input<string>;
  /**
   * Take over a number the account already owns instead of buying one (destroy will then cancel
   * it). Changing it replaces.
   */
  number?: pulumi.Input<string>;
}

/**
 * A phone number the account owns because the program says so: create buys one (numbers/buy,
 * exactly once even when the service loses its answer), or takes over `number`; **destroy cancels
 * it (numbers/cancel), which cannot be undone** — the number is gone for good. Guard production
 * numbers with `protect: true`. A delete never cancels a number the program still declares, in
 * another PurchasedNumber or in a {@link PhoneNumber} binding.
 * @example
 * const main = new PurchasedNumber("main", { areaCode: "415" }, { protect: true });
 * new PhoneNumber("main-line", { number: main.number, inboundAgent: support.id });
 */
export class PurchasedNumber extends pulumi.dynamic.Resource {
  declare public readonly areaCode: pulumi.Output<string | undefined>;
  /** The number, E.164. */
  declare public readonly number: pulumi.Output<string>;
  /** Whether the number is active (false once cancelled). */
  declare public readonly active: pulumi.Output<boolean>;
  /** The owner's user id. */
  declare public readonly userId: pulumi.Output<string>;

  constructor(name: string, args: PurchasedNumberArgs = {}, opts?: pulumi.CustomResourceOptions) {
    assertTokenIsSecret();
    super(
      provider,
      name,
      { areaCode: undefined, number: undefined, active: undefined, userId: undefined, ...args },
      opts,
      "voiceagent",
      "PurchasedNumber",
    );
  }
}
