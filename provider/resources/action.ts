import * as pulumi from "@pulumi/pulumi";
import type { ActionType } from "../schemas/values.js";
import { assertTokenIsSecret } from "./kit/guard.js";
import { providerShim } from "./kit/shim.js";

const provider = providerShim("Action");

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

/**
 * Something an agent can do during a call. Uses the service's actions/create and actions/update;
 * destroy forgets it.
 * @example
 * const hangUp = new Action("end-call", { type: "action_end_conversation" });
 */
export class Action extends pulumi.dynamic.Resource {
  declare public readonly type: pulumi.Output<string>;
  declare public readonly config: pulumi.Output<Record<string, unknown>>;
  declare public readonly actionId: pulumi.Output<string | undefined>;
  /** The owner's user id. */
  declare public readonly userId: pulumi.Output<string>;

  constructor(name: string, args: ActionArgs = {}, opts?: pulumi.CustomResourceOptions) {
    assertTokenIsSecret();
    super(provider, name, { userId: undefined, type: undefined, config: undefined, ...args }, opts, "voiceagent", "Action");
  }
}
