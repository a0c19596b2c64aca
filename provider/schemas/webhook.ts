import { z } from "zod";
import { UuidSchema } from "./common.js";
import { WEBHOOK_EVENTS, WEBHOOK_METHODS } from "./values.js";

/** A known webhook method. */
export const WebhookMethodSchema = z.enum(WEBHOOK_METHODS);
/** A known event name. */
export const WebhookEventSchema = z.enum(WEBHOOK_EVENTS);

/** A webhook as the service returns it. */
export const WebhookSchema = z.object({
  id: UuidSchema,
  user_id: z.string(),
  subscriptions: z.array(z.string()),
  url: z.string(),
  /** The current API may leave it null (its default then applies). */
  method: z.string().nullish(),
});
/** A webhook. */
export type Webhook = z.infer<typeof WebhookSchema>;

/** Body of webhooks/create and webhooks/update. */
export const WebhookWriteSchema = z.object({
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
  method: WebhookMethodSchema.default("POST"),
  subscriptions: z.array(WebhookEventSchema).min(1),
});
/** Body of webhooks/create and webhooks/update, as sent. */
export type WebhookWrite = z.input<typeof WebhookWriteSchema>;
