import * as pulumi from "@pulumi/pulumi";
import { VoiceAgentResource } from "./base.js";
import type { Deployed, OutputsOf } from "./outputs.js";

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

/** What a {@link PurchasedNumber} reports besides its arguments. */
export interface PurchasedNumberState {
  /** The number, E.164 (bought, or the one adopted). */
  number: string;
  /** Whether the number is active (false once cancelled). */
  active: boolean;
  /** The owner's user id. */
  userId: string;
}

/** The outputs of a {@link PurchasedNumber}: its arguments as deployed, and what it reports. */
export type PurchasedNumberOutputs = Deployed<PurchasedNumberArgs, PurchasedNumberState>;

// The outputs are declared by merging this interface into the class below.
export interface PurchasedNumber extends OutputsOf<PurchasedNumberOutputs> {}

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
export class PurchasedNumber extends VoiceAgentResource {
  constructor(name: string, args: PurchasedNumberArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super("PurchasedNumber", name, { areaCode: undefined, number: undefined, active: undefined, userId: undefined, ...args }, opts);
  }
}
