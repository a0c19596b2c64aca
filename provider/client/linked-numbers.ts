import {
  currentOnlyRoutes,
  endpoints,
  LinkedNumberSchema,
  type LinkedNumber,
  type PhoneNumberLink,
} from "../schemas/index.js";
import { needCurrentRoute, type ApiGeneration, type Generation } from "./generation.js";
import { pager, readPage } from "./pager.js";
import type { PageReads } from "./page-reads.js";
import { createOnce, type CreateContext } from "./reconcile.js";

// The calls of a number linked from the team's own Twilio account (numbers/link, current API only).
// Every answer is read with LinkedNumberSchema: the current API embeds the Twilio connection, its
// SID and auth token with it, in a full number; only the connection's id is ever kept.

/** numbers/get, numbers/update and numbers/link, each read as a linked number. */
const getRoute = { ...endpoints.getNumber, response: LinkedNumberSchema };
const updateRoute = { ...endpoints.updateNumber, response: LinkedNumberSchema };
const linkRoute = { ...currentOnlyRoutes.linkNumber, response: LinkedNumberSchema };

/** What a linked number's inbound side can change in place (numbers/update of the current API). */
export interface LinkedNumberChange {
  inbound_agent?: string;
  outbound_only?: boolean;
}

/**
 * The client's `linkedNumbers`: link exactly once, read, change the inbound agent, list. There is
 * no unlink: 0.0.48 has no such route, and numbers/cancel would cancel the number itself.
 */
export function linkedNumbersClient(
  ctx: CreateContext,
  generation: Generation,
  resolveGeneration: () => Promise<ApiGeneration>,
  pages: PageReads,
) {
  const { send, sendRoute } = ctx.transport;
  const list = pager(endpoints.listNumbers, (page, size, deadline) =>
    send("listNumbers", { query: { page, size }, deadline }).then((p) => readPage(LinkedNumberSchema, p)),
  );
  /** A refresh's reads of linked numbers, from the numbers' listing read as linked numbers (page-reads.ts). */
  const reads = pages.collection("numbers", { list: () => list.listing(), keyOf: (n) => n.number });
  return {
    /**
     * Links a number of the team's own Twilio account, exactly once. A lost answer is settled by
     * the account's numbers list (complete listings only), never by linking again: the service
     * refuses a number it already holds, so a second link could only fail after a first that worked.
     */
    link: async (body: PhoneNumberLink): Promise<LinkedNumber> => {
      await needCurrentRoute(resolveGeneration, generation, "linking a number (numbers/link)", linkRoute);
      return pages.writing("numbers", () =>
        createOnce<LinkedNumber>(
          {
            collection: "numbers",
            noun: "linked number",
            body,
            // The service holds a number once: only a link of the same number can make this one.
            overlaps: (other) =>
              typeof other === "object" &&
              other !== null &&
              "phone_number" in other &&
              other.phone_number === body.phone_number,
            send: (deadline) => sendRoute("linkNumber", linkRoute, { body, deadline }),
            list: list.listing,
            matches: (n) =>
              n.number === body.phone_number &&
              n.active !== false &&
              n.telephony_account_connection === body.telephony_account_connection,
          },
          ctx,
        ),
      );
    },
    /** The number as the service holds it (404 when the account does not hold it). */
    get: (phoneNumber: string) =>
      reads.read(phoneNumber, () => sendRoute("getNumber", getRoute, { query: { phone_number: phoneNumber } })),
    /** Changes the inbound agent or outbound-only flag in place; the current API cannot unbind. */
    update: async (phoneNumber: string, change: LinkedNumberChange) => {
      await needCurrentRoute(resolveGeneration, generation, "changing a linked number", updateRoute);
      return pages.writing("numbers", () =>
        sendRoute("updateNumber", updateRoute, { query: { phone_number: phoneNumber }, body: change }),
      );
    },
    /** The account's numbers, each read as a linked number (a number the service sold has no connection). */
    list,
  };
}
