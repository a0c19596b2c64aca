import * as pulumi from "@pulumi/pulumi";
import { VoiceAgentResource } from "./base.js";
import type { Deployed, OutputsOf } from "./outputs.js";

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

/** The outputs of an {@link Agent}: its arguments as deployed, and what it reports. */
export type AgentOutputs = Deployed<AgentArgs, { /** The owner's user id. */ userId: string }>;

// The outputs are declared by merging this interface into the class below.
export interface Agent extends OutputsOf<AgentOutputs> {}

/**
 * A voice agent. The service has no delete: destroying it removes it from the stack only
 * (use `retainOnDelete` to say so explicitly, or `protect` to guard it).
 * @example
 * const agent = new Agent("support", { prompt: "You answer support calls.", voice: voice.id });
 */
export class Agent extends VoiceAgentResource {
  constructor(name: string, args: AgentArgs, opts?: pulumi.CustomResourceOptions) {
    super("Agent", name, { userId: undefined, ...args }, opts);
  }
}
