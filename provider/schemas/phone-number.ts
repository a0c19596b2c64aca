import { z } from "zod";
import { UuidSchema } from "./common.js";
import { RefSchema } from "./read.js";

/**
 * A phone number as the service returns it; `inbound_agent` is null when unbound, embedded or (in
 * 2024's lists) an id. The current API may leave `active` null: only `false` means cancelled.
 */
export const PhoneNumberSchema = z.object({
  id: UuidSchema,
  user_id: z.string(),
  active: z.boolean().nullish(),
  inbound_agent: RefSchema.nullish(),
  number: z.string(),
  /** The current API's: whether the number only places calls. */
  outbound_only: z.boolean().nullish(),
  /**
   * The current API's: the Twilio account connection a linked number came through (none for a
   * number the service sold), by id in a list page; of an embedded one only its id is kept (never its credentials).
   */
  telephony_account_connection: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
});
/** A phone number. */
export type PhoneNumber = z.infer<typeof PhoneNumberSchema>;

/** Body of numbers/update: bind an agent, or `null` to unbind (docs/decisions.md §1). */
export const PhoneNumberUpdateSchema = z.object({ inbound_agent: UuidSchema.nullable() });
/** Body of numbers/update. */
export type PhoneNumberUpdate = z.infer<typeof PhoneNumberUpdateSchema>;

/** Body of numbers/buy (extension): an optional 3-digit area code and agent to bind. */
export const PhoneNumberBuySchema = z
  .object({
    area_code: z
      .string()
      .regex(/^[2-9]\d{2}$/, { error: "must be a 3-digit area code" })
      .optional(),
    inbound_agent: UuidSchema.optional(),
  })
  .nullish();
/** Body of numbers/buy. */
export type PhoneNumberBuy = z.infer<typeof PhoneNumberBuySchema>;
