import { z } from "zod";
import {
  LIMITS,
  UuidSchema,
  WebhookEventSchema,
  WebhookMethodSchema,
  WebhookUrlSchema,
  WebhookWriteSchema,
  type Webhook,
  type WebhookWrite,
} from "../../schemas/index.js";
import { adoptable } from "../kit/adoptable.js";
import { defineKind } from "../kit/kind.js";
import { present, refusal, slug } from "../kit/pull.js";

/** A webhook's base name: its URL's host and path. */
export function webhookBaseName(w: Pick<Webhook, "url">): string {
  let text = w.url;
  try {
    const u = new URL(w.url);
    text = `${u.hostname} ${u.pathname}`;
  } catch {
    // Not a URL: the slug of the text itself is still readable.
  }
  return slug(text) || "webhook";
}

/** What the service does with a webhook whose method is unset (null on the current API): it delivers by POST. */
const SERVICE_DEFAULT_METHOD = "POST";

const input = z.object({
  url: WebhookUrlSchema,
  method: WebhookMethodSchema.default("POST"),
  subscriptions: z.array(WebhookEventSchema).min(1, { error: "must name at least one event" }),
  webhookId: UuidSchema.optional(),
});

/** Webhook: the extension endpoints webhooks/create, webhooks/update and GET /v1/webhooks. */
export const webhookKind = defineKind<Webhook, WebhookWrite>()({
  kind: "Webhook",
  pull: {
    name: webhookBaseName,
    // An unset method (null on the current API) is the service's default, POST: never a refusal.
    refuse: (w) => refusal(WebhookWriteSchema.safeParse({ ...w, method: w.method ?? undefined })),
    adopt: (w) => ({
      args: { webhookId: w.id, url: w.url, ...present({ method: w.method }), subscriptions: w.subscriptions },
      refs: [],
    }),
  },
  doc: "Where an agent's events are delivered. Uses webhooks/create and webhooks/update; destroy forgets it.",
  importId: "its id (a UUID)",
  input,
  fields: {
    // Naming the object this resource already manages is no change.
    url: {
      doc:
        `Where events are delivered: an http(s) URL of at most ${LIMITS.urlMax} characters, without credentials ` +
        `(\`user:password@\` would be stored in plain text in the state) or unencoded spaces.`,
      wire: "url",
      read: (w) => w.url,
    },
    method: {
      doc:
        "The HTTP method of deliveries: GET or POST (default). A webhook the service holds without a method " +
        "(null on the current API) is delivered by POST, and reads as POST.",
      wire: "method",
      // The service delivers a method-less webhook by POST (docs/decisions.md): it reads as the default, never as drift.
      read: (w) => w.method ?? SERVICE_DEFAULT_METHOD,
    },
    subscriptions: {
      doc: "Events to deliver, e.g. event_message, event_phone_call_ended (order does not matter).",
      wire: "subscriptions",
      read: (w) => w.subscriptions,
      compare: "set",
    },
    webhookId: {
      doc: "Adopt an existing webhook instead of creating one. Changing it replaces.",
      wire: null,
      read: (_w, recorded) => recorded.webhookId,
      compare: { live: (_recorded, id) => id },
      change: "replaces",
    },
  },
  ...adoptable({
    input,
    collection: "webhooks",
    noun: "webhook",
    adopt: "webhookId",
    adoptId: (inputs) => inputs.webhookId,
    routes: (client) => client.webhooks,
    parse: (body) => WebhookWriteSchema.parse(body),
  }),
});
