import { z } from "zod";

/**
 * A reference the current API sends either as an id or as the object itself (a full number embeds
 * its agent and its Twilio connection; a list item names them by id): read as the id only.
 */
const idOnly = z
  .union([z.string(), z.looseObject({ id: z.string() })])
  .transform((v) => (typeof v === "string" ? v : v.id));

/**
 * A number as a LinkedNumber reads it, from numbers/get, numbers/list, numbers/link and
 * numbers/update of the current API alike. A plain object, so every field it does not name is
 * dropped: the embedded Twilio connection's SID and auth token are never kept, only its id.
 */
export const LinkedNumberSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  /** Null on the current API means active: only false means cancelled. */
  active: z.boolean().nullish(),
  number: z.string(),
  outbound_only: z.boolean().nullish(),
  inbound_agent: idOnly.nullish(),
  /** The account connection it was linked through; none for a number the service sold. */
  telephony_account_connection: idOnly.nullish(),
  telephony_provider: z.string().nullish(),
});
/** A number as a LinkedNumber reads it (references by id, no credentials). */
export type LinkedNumber = z.output<typeof LinkedNumberSchema>;
