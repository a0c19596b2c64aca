import * as pulumi from "@pulumi/pulumi";
import type { WebhookEvent, WebhookMethod } from "../schemas/values.js";
import { assertTokenIsSecret } from "./kit/guard.js";
import { providerShim } from "./kit/shim.js";

const provider = providerShim("Webhook");

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

/**
 * Where an agent's events are delivered. Uses webhooks/create and webhooks/update; destroy forgets it.
 * @example
 * const hook = new Webhook("events", { url: "https://hooks.example.com/va", subscriptions: ["event_message"] });
 */
export class Webhook extends pulumi.dynamic.Resource {
  declare public readonly url: pulumi.Output<string>;
  declare public readonly method: pulumi.Output<string>;
  declare public readonly subscriptions: pulumi.Output<string[]>;
  declare public readonly webhookId: pulumi.Output<string | undefined>;
  /** The owner's user id. */
  declare public readonly userId: pulumi.Output<string>;

  constructor(name: string, args: WebhookArgs, opts?: pulumi.CustomResourceOptions) {
    assertTokenIsSecret();
    super(provider, name, { userId: undefined, method: undefined, ...args }, opts, "voiceagent", "Webhook");
  }
}
