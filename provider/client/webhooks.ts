import type { WebhookWrite } from "../schemas/index.js";
import type { ClientParts } from "./client-parts.js";
import type { CollectionPagers } from "./pager.js";

/** The client's `webhooks`: create exactly once, read, update, list (both generations take one body). */
export function webhooksClient(parts: ClientParts, webhooks: CollectionPagers["webhooks"]) {
  const { send, wrote, once } = parts;
  const reads = parts.pages.collection("webhooks", { list: () => webhooks.listing(), keyOf: (w) => w.id });
  return {
    create: (body: WebhookWrite) =>
      once("webhooks", "webhook", body, (deadline) => send("createWebhook", { body, deadline }), webhooks.listing),
    get: (id: string) => reads.read(id, () => send("getWebhook", { query: { id } })),
    update: (id: string, body: WebhookWrite) => wrote("webhooks", send("updateWebhook", { query: { id }, body })),
    list: webhooks,
  };
}
