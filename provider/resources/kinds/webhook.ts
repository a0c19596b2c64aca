import { z } from "zod";
import { UuidSchema, WebhookEventSchema, WebhookMethodSchema, WebhookWriteSchema, type Webhook, type WebhookWrite } from "../../schemas/index.js";
import { adoptable } from "../kit/adoptable.js";
import { defineKind } from "../kit/kind.js";

const input = z.object({
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  method: WebhookMethodSchema.default("POST"),
  subscriptions: z.array(WebhookEventSchema).min(1, { error: "must name at least one event" }),
  webhookId: UuidSchema.optional(),
});

/** Webhook: the extension endpoints webhooks/create, webhooks/update and GET /v1/webhooks. */
export const webhookKind = defineKind<Webhook, WebhookWrite>()({
  kind: "Webhook",
  input,
  fields: {
    url: { wire: "url", read: (w) => w.url },
    method: { wire: "method", read: (w) => w.method },
    subscriptions: { wire: "subscriptions", read: (w) => w.subscriptions, set: true },
    // Naming the object this resource already manages is no change.
    webhookId: { wire: null, read: (_w, recorded) => recorded.webhookId, live: (_recorded, id) => id, replaces: true },
  },
  ...adoptable({
    input,
    family: "webhooks",
    noun: "webhook",
    adopt: "webhookId",
    adoptId: (inputs) => inputs.webhookId,
    routes: (client) => client.webhooks,
    parse: (body) => WebhookWriteSchema.parse(body),
  }),
});
