import * as pulumi from "@pulumi/pulumi";
import type { WebhookEvent, WebhookMethod } from "../schemas/values.js";
import { VoiceAgentResource } from "./base.js";
import type { Deployed, OutputsOf } from "./outputs.js";

/** The arguments of a {@link Webhook}. */
export interface WebhookArgs {
  /** Where events are delivered: an http(s) URL. */
  url: pulumi.Input<string>;
  /** GET or POST (default). */
  method?: pulumi.Input<WebhookMethod>;
  /** Events to deliver, e.g. event_message, event_phone_call_ended (order does not matter). */
  subscriptions: pulumi.Input<pulumi.Input<WebhookEvent>[]>;
  /** Adopt an existing webhook instead of creating one. Changing it replaces. */
  webhookId?: pulumi.Input<string>;
}

/** The outputs of a {@link Webhook}: its arguments as deployed, and what it reports. */
export type WebhookOutputs = Deployed<WebhookArgs, { /** The owner's user id. */ userId: string }>;

// The outputs are declared by merging this interface into the class below.
export interface Webhook extends OutputsOf<WebhookOutputs> {}

/**
 * Where an agent's events are delivered. Uses webhooks/create and webhooks/update; destroy forgets it.
 * @example
 * const hook = new Webhook("events", { url: "https://hooks.example.com/va", subscriptions: ["event_message"] });
 */
export class Webhook extends VoiceAgentResource {
  constructor(name: string, args: WebhookArgs, opts?: pulumi.CustomResourceOptions) {
    super("Webhook", name, { userId: undefined, method: undefined, ...args }, opts);
  }
}
