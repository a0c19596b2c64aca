import { z } from "zod";
import { defineFunction } from "../kit/function.js";
import { everyItem, readable } from "./read.js";
import { WebhookFound, webhookFound } from "./shapes.js";

/** getWebhooks: the account's webhooks (every page of /v1/webhooks/list), filtered. */
export const getWebhooks = defineFunction({
  name: "getWebhooks",
  doc: "Lists the account's webhooks, optionally only those receiving one `event` or using one `method`. Their URLs come back secret.",
  input: z.object({
    event: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "Only webhooks subscribed to this event (event_message, ...)." }),
    method: z.string().min(1).optional().meta({ description: "Only webhooks using this HTTP method (GET or POST)." }),
  }),
  result: z.object({
    webhooks: z
      .array(WebhookFound)
      .meta({ description: "The matching webhooks, in the order the service lists them." }),
  }),
  async run(client, { event, method }) {
    const all = readable(await everyItem(client, "webhooks", "getWebhooks"));
    return {
      webhooks: all
        .filter(
          (w) =>
            (event === undefined || w.subscriptions.includes(event)) && (method === undefined || w.method === method),
        )
        .map(webhookFound),
    };
  },
});
