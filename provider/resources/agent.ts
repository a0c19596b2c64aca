import * as pulumi from "@pulumi/pulumi";
import { assertTokenIsSecret } from "./kit/guard.js";
import { providerShim } from "./kit/shim.js";

const provider = providerShim("Agent");

/** The arguments of an {@link Agent}. */
export interface AgentArgs {
  /** The agent's instructions. Required, non-empty. */
  prompt: pulumi.Input<string>;
  /** The id of the voice it speaks with: a {@link Voice}'s `id`, or an existing voice's UUID. */
  voice: pulumi.Input<string>;
  /** What it says first when a call connects ("" or unset: nothing). */
  initialMessage?: pulumi.Input<string>;
  /** Ids of the actions it may take (order does not matter). */
  actions?: pulumi.Input<pulumi.Input<string>[]>;
  /** The id of the webhook that receives its events. */
  webhook?: pulumi.Input<string>;
  /**
   * Adopt an existing agent instead of creating one: its fields are set to these arguments on the
   * first `up` (`pulumi import` does not work for dynamic providers). Changing it replaces.
   */
  agentId?: pulumi.Input<string>;
}

/**
 * A voice agent. The service has no delete: destroying it removes it from the stack only
 * (use `retainOnDelete` to say so explicitly, or `protect` to guard it).
 * @example
 * const agent = new Agent("support", { prompt: "You answer support calls.", voice: voice.id });
 */
export class Agent extends pulumi.dynamic.Resource {
  declare public readonly prompt: pulumi.Output<string>;
  declare public readonly voice: pulumi.Output<string>;
  declare public readonly initialMessage: pulumi.Output<string | undefined>;
  declare public readonly actions: pulumi.Output<string[]>;
  declare public readonly webhook: pulumi.Output<string | undefined>;
  declare public readonly agentId: pulumi.Output<string | undefined>;
  /** The owner's user id. */
  declare public readonly userId: pulumi.Output<string>;

  constructor(name: string, args: AgentArgs, opts?: pulumi.CustomResourceOptions) {
    assertTokenIsSecret();
    super(provider, name, { userId: undefined, ...args }, opts, "voiceagent", "Agent");
  }
}
