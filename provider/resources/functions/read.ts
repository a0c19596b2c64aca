import { type CollectionName, collections, type ItemOf } from "../../schemas/index.js";
import {
  ApiError,
  ApiNotFoundError,
  isRouteMissing,
  lookFor,
  readable,
  type Listing,
  type VoiceAgentClient,
} from "../../client/index.js";
import { ExplainedError } from "../kit/errors.js";

// What every lookup does the same way: read a whole list through the client's pager (every page,
// each object once), say which route a server lacks, and insist on exactly one match.

/** Every object a lookup's listing could read: lists report what is there, never what is not. */
export { readable };

/**
 * Every object of one collection of the account that could be read, and whether that is all of
 * them (client/listing.ts). A server without the list route gets an error naming the route and
 * the function; nothing is ever written by a lookup.
 */
export async function everyItem<C extends CollectionName>(
  client: VoiceAgentClient,
  collection: C,
  fn: string,
): Promise<Listing<ItemOf<C>>> {
  try {
    return await client.lists[collection].listing();
  } catch (err) {
    if (!isRouteMissing(err)) throw err;
    const route = collections[collection].routes.list;
    throw new ExplainedError(
      `${fn} needs the service's ${route.method} ${route.path} route, which this service does not have (it answered ${
        err instanceof ApiError ? err.status : 404
      }); nothing was changed. Look the object up by its id instead, or set its id in the program`,
      { code: "E_UNSUPPORTED", mayHaveActed: false },
    );
  }
}

/**
 * A read by id or number, with a 404 said as "no <noun> <what>": the lookup names what it looked
 * for, and the service's own words stay out (they may echo the request).
 */
export async function byKey<T>(read: Promise<T>, fn: string, what: string): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiNotFoundError)
      throw new ExplainedError(
        `${fn}: found no ${what} on this account (the service answered 404); nothing was changed`,
        { code: "E_NOT_FOUND", mayHaveActed: false },
      );
    throw err;
  }
}

/**
 * The one match of a lookup, or an error saying how many there were and what was looked for.
 * "Found no" only from a complete listing: one that could not be read whole says so instead.
 */
export function exactlyOne<T>(listing: Listing<T>, match: (item: T) => boolean, fn: string, what: string): T {
  const sighting = lookFor(listing, match);
  if ("unknown" in sighting) {
    throw new ExplainedError(
      `${fn}: found no ${what} among the objects it could read, and the account's list could not be read whole (${sighting.unknown}); ` +
        "nothing was changed: look it up by its id instead",
      { code: "E_INCOMPLETE_LIST", mayHaveActed: false },
    );
  }
  const matches = "seen" in sighting ? sighting.seen : [];
  const [only] = matches;
  if (matches.length === 1 && only !== undefined) return only;
  const count = matches.length === 0 ? "found no" : `found ${matches.length} of`;
  const fix =
    matches.length === 0
      ? "check the name and the account the stack's voiceagent:baseUrl and token point at"
      : "look it up by its id instead";
  throw new ExplainedError(
    `${fn}: ${count} ${what} on this account, where exactly one was expected; nothing was changed: ${fix}`,
    { code: matches.length === 0 ? "E_NOT_FOUND" : "E_AMBIGUOUS", mayHaveActed: false },
  );
}

/**
 * Fails, naming the route, when the server lacks the extension routes a read by id needs (its 404
 * would otherwise read as "no such object").
 */
export async function needsRoutes(
  client: VoiceAgentClient,
  collection: CollectionName,
  fn: string,
  route: { method: string; path: string },
): Promise<void> {
  if (await client.capabilities.has(collection)) return;
  throw new ExplainedError(
    `${fn} needs the service's ${route.method} ${route.path} route, which this service does not have; nothing was changed`,
    { code: "E_UNSUPPORTED", mayHaveActed: false },
  );
}
