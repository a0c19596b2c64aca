import * as pulumi from "@pulumi/pulumi";
import type { ActionType } from "../schemas/values.js";
import { VoiceAgentResource } from "./base.js";
import type { Deployed, OutputsOf } from "./outputs.js";

/** An action's configuration. */
export interface ActionConfigArgs {
  /** For action_transfer_call (and shown on action_end_conversation): a number, E.164. */
  phoneNumber?: pulumi.Input<string>;
  /** Other keys are passed to the service as they are. */
  [key: string]: pulumi.Input<unknown> | undefined;
}

/** The arguments of an {@link Action}. */
export interface ActionArgs {
  /** action_end_conversation (default), action_transfer_call or action_dtmf. */
  type?: pulumi.Input<ActionType>;
  config?: pulumi.Input<ActionConfigArgs>;
  /** Adopt an existing action instead of creating one. Changing it replaces. */
  actionId?: pulumi.Input<string>;
}

/** The outputs of an {@link Action}: its arguments as deployed, and what it reports. */
export type ActionOutputs = Deployed<ActionArgs, { /** The owner's user id. */ userId: string }>;

// The outputs are declared by merging this interface into the class below.
export interface Action extends OutputsOf<ActionOutputs> {}

/**
 * Something an agent can do during a call. Uses the service's actions/create and actions/update;
 * destroy forgets it.
 * @example
 * const hangUp = new Action("end-call", { type: "action_end_conversation" });
 */
export class Action extends VoiceAgentResource {
  constructor(name: string, args: ActionArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super("Action", name, { userId: undefined, type: undefined, config: undefined, ...args }, opts);
  }
}
