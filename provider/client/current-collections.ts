import type { z } from "zod";
import { collections, PageReadSchema, type CollectionName, type EndpointDef } from "../schemas/index.js";
import type { Listing } from "./listing.js";
import { pager, readPage } from "./pager.js";
import type { SendRoute } from "./transport.js";

// The calls of the collections only the current API (2024) has (prompts, account connections,
// vector databases), typed from the wire layer's collection table (schemas/collections.ts): each
// route, body and answer is the table's, so a route or schema changes in one place. Creates go
// through the client's exactly-once machinery (`once`), like the interface's collections.

/** The current API's own collections, as the shared ledger and the kinds name them. */
export const CURRENT_COLLECTIONS = [
  "prompts",
  "account_connections",
  "vector_databases",
] as const satisfies readonly CollectionName[];

type CollectionTable = typeof collections;
/** One object of collection C, as read. */
export type ItemOf<C extends CollectionName> = z.output<CollectionTable[C]["item"]>;
/** The body of collection C's create, as a caller gives it. */
export type CreateOf<C extends CollectionName> = z.input<CollectionTable[C]["routes"]["create"]["body"]>;
/** The body of collection C's update, as a caller gives it. */
export type UpdateOf<C extends CollectionName> = z.input<CollectionTable[C]["routes"]["update"]["body"]>;

/** The exactly-once create the client gives every collection (client.ts `once`). */
export type Once = <T extends { id: string }>(
  kind: CollectionName,
  noun: string,
  body: object,
  post: (deadline: number) => Promise<T>,
  listing: (deadline: number) => Promise<Listing<T>>,
) => Promise<T>;

/** get, list (every page, items read one by one), create (exactly once) and update of one collection. */
function crudOf<T extends { id: string }, Create extends object, Update>(
  name: CollectionName,
  noun: string,
  item: z.ZodType<T>,
  send: SendRoute,
  once: Once,
) {
  const routes: Record<"get" | "list" | "create" | "update", EndpointDef> = collections[name].routes;
  const read = (answer: unknown): T => item.parse(answer);
  // Read as raw pages, each item by its schema: one odd item is kept in view, not fatal to the list.
  const list = pager(routes.list, (page, size, deadline) =>
    send(routes.list.path, { ...routes.list, response: PageReadSchema }, { query: { page, size }, deadline }).then(
      (p) => readPage(item, p),
    ),
  );
  return {
    create: (body: Create) =>
      once(
        name,
        noun,
        body,
        (deadline) => send(routes.create.path, routes.create, { body, deadline }).then(read),
        list.listing,
      ),
    get: (id: string) => send(routes.get.path, routes.get, { query: { id } }).then(read),
    update: (id: string, body: Update) => send(routes.update.path, routes.update, { query: { id }, body }).then(read),
    list,
  };
}

/** get, list, create and update of collection C, typed from its entry in the table. */
const crud = <C extends CollectionName>(
  name: C,
  noun: string,
  item: z.ZodType<ItemOf<C>>,
  send: SendRoute,
  once: Once,
) => crudOf<ItemOf<C>, CreateOf<C>, UpdateOf<C>>(name, noun, item, send, once);

/** The calls of the current API's own collections, over one client's transport and create machinery. */
export function currentCollections(send: SendRoute, once: Once) {
  const { add_to_steering_pool: add, remove_from_steering_pool: remove } = collections.account_connections.routes;
  return {
    prompts: crud("prompts", "prompt", collections.prompts.item, send, once),
    accountConnections: {
      ...crud("account_connections", "account connection", collections.account_connections.item, send, once),
      /**
       * Adds a number to a Twilio connection's steering pool (adding one already there changes
       * nothing). The answer is not relied on (0.0.48 types it Any): read the connection after.
       */
      addToSteeringPool: async (id: string, phoneNumber: string): Promise<void> => {
        await send(add.path, add, { query: { id }, body: { phone_number: phoneNumber } });
      },
      /** Removes a number from a Twilio connection's steering pool (one not there changes nothing). */
      removeFromSteeringPool: async (id: string, phoneNumber: string): Promise<void> => {
        await send(remove.path, remove, { query: { id }, body: { phone_number: phoneNumber } });
      },
    },
    vectorDatabases: crud("vector_databases", "vector database", collections.vector_databases.item, send, once),
  };
}
