import { type CollectionName, collections, routeName } from "../schemas/index.js";
import type { SendRoute } from "./transport.js";
import type { PageReads } from "./page-reads.js";

// What the current API's own collections (prompts, account connections, vector databases) have
// beyond the calls the collection table gives every such collection (collection-client.ts: get,
// list, create exactly once, update): a Twilio connection's steering pool.

/** The current API's own collections, as the kinds name them. */
export const CURRENT_COLLECTIONS = [
  "prompts",
  "account_connections",
  "vector_databases",
] as const satisfies readonly CollectionName[];

/** A Twilio account connection's steering pool: its two routes of the table. */
export function steeringPool(sendRoute: SendRoute, pages: PageReads) {
  const def = collections.account_connections;
  const { add_to_steering_pool: add, remove_from_steering_pool: remove } = def.routes;
  return {
    /**
     * Adds a number to a Twilio connection's steering pool (adding one already there changes
     * nothing). The answer is not relied on (0.0.48 types it Any): read the connection after.
     */
    addToSteeringPool: async (id: string, phoneNumber: string): Promise<void> => {
      await pages.writing("account_connections", () =>
        sendRoute(routeName(def, "add_to_steering_pool"), add, { query: { id }, body: { phone_number: phoneNumber } }),
      );
    },
    /** Removes a number from a Twilio connection's steering pool (one not there changes nothing). */
    removeFromSteeringPool: async (id: string, phoneNumber: string): Promise<void> => {
      await pages.writing("account_connections", () =>
        sendRoute(routeName(def, "remove_from_steering_pool"), remove, {
          query: { id },
          body: { phone_number: phoneNumber },
        }),
      );
    },
  };
}
