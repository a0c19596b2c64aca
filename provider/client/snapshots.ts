import { collections } from "../schemas/index.js";
import { isRouteMissing, type Capabilities, type CollectionName } from "./capabilities.js";
import { ApiIncompleteListingError } from "./errors.js";
import { gapOf, readable, type Listing } from "./listing.js";

/** An object as a list page holds it (an item): all that reconciliation needs is its id. */
export interface ListItem {
  id: string;
}

/**
 * The ids of each collection that existed before a client's first create of that collection, so that an
 * object someone else made before is never taken for one of ours. Per client: a later client's
 * snapshot may hold objects an earlier one made, which only makes it take fewer.
 */
export class Snapshots {
  private readonly before = new Map<CollectionName, Promise<Set<string> | undefined>>();

  constructor(private readonly caps: Capabilities) {}

  /**
   * The ids that existed before this client's first create of `collection`; undefined without a list
   * route. An item the schema could not read still names an object that existed (when it shows
   * its id): it can never be what a later create made. A listing cut short, or holding an item
   * without an id, leaves objects that existed unnamed, which a later check would take for new
   * ones: no snapshot then (an ApiIncompleteListingError, so the create's outcome, if its reply
   * is lost, is unknown rather than settled by a match), and the next create lists again.
   */
  of(collection: CollectionName, list: () => Promise<Listing<ListItem>>): Promise<Set<string> | undefined> {
    let ids = this.before.get(collection);
    if (!ids) {
      ids = list().then(
        (listing) => {
          this.caps.learn(collection, true);
          const unreadable = listing.complete ? [] : listing.unreadable.flatMap((u) => u.id ?? []);
          // Unreadable items that show their id are named; anything else missing is a gap.
          const gap = gapOf(listing, new Set(unreadable));
          if (gap !== undefined) {
            this.before.delete(collection);
            const route = collections[collection].routes.list;
            throw new ApiIncompleteListingError(route.method, route.path, gap);
          }
          return new Set([...readable(listing).map((i) => i.id), ...unreadable]);
        },
        (err: unknown) => {
          if (isRouteMissing(err)) {
            this.caps.learn(collection, false);
            return undefined;
          }
          this.before.delete(collection);
          throw err;
        },
      );
      this.before.set(collection, ids);
    }
    return ids;
  }
}
