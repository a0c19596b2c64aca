import * as pulumi from "@pulumi/pulumi";
import { VoiceAgentResource } from "./base.js";
import type { Deployed, OutputsOf } from "./outputs.js";

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

/** What a {@link PhoneNumber} reports besides its arguments. */
export interface PhoneNumberState {
  /** Whether the number is active (false once cancelled). */
  active: boolean;
  /** The number's UUID on the service (also the resource's id). */
  numberId: string;
  /** The owner's user id. */
  userId: string;
}

/** The outputs of a {@link PhoneNumber}: its arguments as deployed, and what it reports. */
export type PhoneNumberOutputs = Deployed<PhoneNumberArgs, PhoneNumberState>;

// The outputs are declared by merging this interface into the class below.
export interface PhoneNumber extends OutputsOf<PhoneNumberOutputs> {}

/**
 * The inbound binding of a phone number the account owns. Rebinding moves it to another agent in
 * place; destroy unbinds it, unless the program declares the same number in another resource (a
 * rename, a swap, a move into a component), which then owns the binding. It never cancels.
 * @example
 * new PhoneNumber("main-line", { number: "+15550010001", inboundAgent: support.id });
 */
export class PhoneNumber extends VoiceAgentResource {
  constructor(name: string, args: PhoneNumberArgs, opts?: pulumi.CustomResourceOptions) {
    super("PhoneNumber", name, { active: undefined, numberId: undefined, userId: undefined, ...args }, opts);
  }
}
