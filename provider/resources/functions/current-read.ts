import {
  collections,
  isRouteMissing,
  listRouteOf,
  type CURRENT_COLLECTIONS,
  type Listing,
  type VoiceAgentClient,
} from "../../client/index.js";
import type { ItemOf } from "../../schemas/index.js";
import { byKey } from "./read.js";
import { ExplainedError } from "../kit/errors.js";

// What the lookups of the current API's own collections share: on the interface's API (2023)
// their routes answer 404, which must read as "this service lacks the collection", never as
// "no such object" or an empty account.

/** The collections these lookups read: the current API's own. */
type Current = (typeof CURRENT_COLLECTIONS)[number];
type ReadOf<C extends Current> = ItemOf<C>;

/** The error a lookup gives when the service lacks the collection (the 2023 API). */
function lacking(fn: string, collection: Current): ExplainedError {
  const route = collections[collection].routes.list;
  return new ExplainedError(
    `${fn} needs the current API (2024): this service has no ${route.method} ${route.path} (it answered 404), ` +
      "so it speaks the interface's API (2023), which has no such objects; nothing was changed",
    { code: "E_GENERATION", mayHaveActed: false },
  );
}

/** Every object of one of the current API's collections that could be read, and whether that is all. */
export async function everyCurrent<C extends Current>(
  client: VoiceAgentClient,
  collection: C,
  fn: string,
): Promise<Listing<ReadOf<C>>> {
  try {
    return await client.lists[collection].listing();
  } catch (err) {
    if (isRouteMissing(err)) throw lacking(fn, collection);
    throw err;
  }
}

/**
 * One object by id: a 404 is "found no <noun>" once the list route shows the collection exists,
 * else the service lacks it.
 */
export async function currentById<C extends Current>(
  client: VoiceAgentClient,
  collection: C,
  id: string,
  fn: string,
  noun: string,
): Promise<ReadOf<C>> {
  const reads: { [K in Current]: () => Promise<ReadOf<K>> } = {
    prompts: () => client.prompts.get(id),
    vector_databases: () => client.vector_databases.get(id),
    account_connections: () => client.account_connections.get(id),
  };
  try {
    return await byKey(reads[collection](), fn, `${noun} with id ${id}`);
  } catch (err) {
    // A 404 of a read by id is ambiguous: one page of the list tells a missing object from a missing route.
    if ((await listRouteOf(client.lists[collection])) === "missing") throw lacking(fn, collection);
    throw err;
  }
}
