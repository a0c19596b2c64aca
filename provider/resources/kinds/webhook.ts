import { z } from "zod";
import { UuidSchema, WebhookEventSchema, WebhookMethodSchema, WebhookWriteSchema, type Webhook, type WebhookWrite } from "../../schemas/index.js";
import { defineKind } from "../kit/kind.js";

/** Webhook: the extension endpoints webhooks/create, webhooks/update and GET /v1/webhooks. */
export const webhookKind = defineKind<Webhook, WebhookWrite>()({
  kind: "Webhook",
  input: z.object({
    url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
    method: WebhookMethodSchema.default("POST"),
    subscriptions: z.array(WebhookEventSchema).min(1, { error: "must name at least one event" }),
    webhookId: UuidSchema.optional(),
  }),
  fields: {
    url: { wire: "url", read: (w) => w.url },
    method: { wire: "method", read: (w) => w.method },
    subscriptions: { wire: "subscriptions", read: (w) => w.subscriptions, set: true },
    webhookId: { wire: null, read: (_w, recorded) => recorded.webhookId, replaces: true },
  },
  adopt: "webhookId",
  outputs: { userId: (w) => w.user_id },
  readRoutes: "webhooks",
  create: (client, inputs, bodies) => {
    const body = WebhookWriteSchema.parse(bodies.create);
    return inputs.webhookId ? client.webhooks.update(inputs.webhookId, body) : client.webhooks.create(body);
  },
  read: (client, id) => client.webhooks.get(id),
  update: (client, id, _inputs, _recorded, bodies) => client.webhooks.update(id, WebhookWriteSchema.parse(bodies.update)),
  forgetNote: "the service has no delete for webhooks; it is removed from the stack and left on the service",
});
