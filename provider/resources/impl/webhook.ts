import { z } from "zod";
import { UuidSchema, WebhookEventSchema, WebhookMethodSchema, type Webhook } from "../../schemas/index.js";
import { compact, found, type Props, type ResourceSpec } from "../kit/spec.js";

const shape = {
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  method: WebhookMethodSchema.default("POST"),
  subscriptions: z.array(WebhookEventSchema).min(1, { error: "must name at least one event" }),
  webhookId: UuidSchema.optional(),
};

const outsOf = (w: Webhook, inputs: Props): Props => {
  const wanted = (inputs.subscriptions as string[] | undefined) ?? [];
  const same = [...wanted].sort().join() === [...w.subscriptions].sort().join();
  return compact({
    url: w.url,
    method: w.method,
    subscriptions: same ? wanted : w.subscriptions,
    webhookId: inputs.webhookId,
    userId: w.user_id,
  });
};
const body = (p: Props) => ({
  url: p.url as string,
  method: p.method as z.infer<typeof WebhookMethodSchema>,
  subscriptions: p.subscriptions as z.infer<typeof WebhookEventSchema>[],
});

/** Webhook: the extension endpoints webhooks/create, webhooks/update and GET /v1/webhooks. */
export const webhookSpec: ResourceSpec = {
  kind: "Webhook",
  shape,
  fields: { url: "url", method: "method", subscriptions: "subscriptions" },
  diff: {
    fields: ["url", "method", "subscriptions", "webhookId"],
    replaceOn: ["webhookId"],
    normalize: (p) => ({ ...p, method: p.method ?? "POST", subscriptions: [...((p.subscriptions as string[]) ?? [])].sort() }),
  },
  async create(client, inputs) {
    const w = inputs.webhookId
      ? await client.webhooks.update(inputs.webhookId as string, body(inputs))
      : await client.webhooks.create(body(inputs));
    return { id: w.id, outs: outsOf(w, inputs) };
  },
  async read(client, id, props) {
    return found(outsOf(await client.webhooks.get(id), props), ["userId"]);
  },
  async update(client, id, _olds, news) {
    return outsOf(await client.webhooks.update(id, body(news)), news);
  },
  forgetNote: "the service has no delete for webhooks; it is removed from the stack and left on the service",
};
