import type { z } from "zod";
import {
  COLLECTION_NAMES,
  type CollectionDef,
  type CollectionName,
  collections,
  type ItemOf,
  PageReadSchema,
  readItems,
  routeName,
  type Page,
  type PageRead,
  type UnreadableItem,
} from "../schemas/index.js";
import { ApiIncompleteListingError } from "./errors.js";
import { gapOf, listingOf, type Listing } from "./listing.js";
import type { SendRoute } from "./transport.js";

/** One list route's pages. */
export type FetchPage<T> = (page: number, size: number, deadline?: number) => Promise<Page<T>>;

/** A page as sent, its items read one by one with `schema` (an unreadable one is kept in view, not fatal). */
export function readPage<T extends z.ZodType>(schema: T, page: PageRead): Page<z.output<T>> {
  const { items, unreadable } = readItems(schema, page.items);
  return { ...page, items, unreadable };
}

/** How many times `listing()` reads every page when it saw fewer objects than the service counts. */
const PASSES = 3;

/**
 * `page(n)` for one page, `listing()` for every object with the proof that none was left out,
 * `all()` for every object or an error. Pages are by offset, so an object made or moved while
 * they are read shifts the rest: a row can come twice (the last of one page is the first of the
 * next) or be skipped. The listing keeps each id once, and reads the pages again while it holds
 * fewer objects than the last page's `total` (a skipped row), at most three passes; still fewer
 * after them, it is incomplete.
 */
export function pager<T extends { id: string }>(route: { method: string; path: string }, fetch: FetchPage<T>) {
  const listing = async (deadline?: number): Promise<Listing<T>> => {
    const byId = new Map<string, T>();
    let unreadable: UnreadableItem[] = [];
    let cut: string | undefined;
    for (let pass = 1; pass <= PASSES; pass++) {
      let total = 0;
      let estimated = false;
      unreadable = [];
      cut = undefined;
      for (let page = 1; ; page++) {
        const res = await fetch(page, 100, deadline);
        for (const item of res.items) if (!byId.has(item.id)) byId.set(item.id, item);
        const odd = res.unreadable ?? [];
        unreadable.push(...odd);
        total = res.total;
        estimated ||= res.total_is_estimated === true;
        if (!res.has_more) break;
        if (res.items.length + odd.length === 0) {
          cut = `page ${page} came back empty though the one before said there was more`;
          break;
        }
      }
      const ids = new Set([...byId.keys(), ...unreadable.flatMap((u) => u.id ?? [])]);
      const seen = ids.size + unreadable.filter((u) => u.id === undefined).length;
      // An estimated total (the current API says so) is no sign of a skipped row.
      if (estimated || seen >= total) break;
      if (pass === PASSES)
        cut ??= `the service counts ${total} objects, and ${PASSES} readings of every page showed ${seen}`;
    }
    return listingOf([...byId.values()], unreadable, cut);
  };
  return {
    /** One page as the service sends it (size 50 unless asked). */
    page: (page = 1, size = 50) => fetch(page, size),
    /** Every object, each id once, in the order first seen (pages of 100), and whether that is all of them. */
    listing,
    /**
     * Every object, each id once (pages of 100); an ApiIncompleteListingError when the pages could
     * not all be read or an item could not be: the array returned is always the whole collection.
     */
    all: async (deadline?: number): Promise<T[]> => {
      const got = await listing(deadline);
      if (got.complete) return [...got.items];
      throw new ApiIncompleteListingError(route.method, route.path, gapOf(got) ?? "the listing is incomplete");
    },
  };
}

/** The pages of one collection: what {@link pager} makes. */
export type Pager<T extends { id: string }> = ReturnType<typeof pager<T>>;

/**
 * The pager of collection `c`, from the collection table: its list route, each page read as a
 * page whatever its items hold, then each item with the collection's item schema (an unreadable
 * one is kept in view, not fatal).
 */
export function collectionPager(sendRoute: SendRoute, def: CollectionDef): Pager<{ id: string }> {
  const route = { ...def.routes.list, response: PageReadSchema };
  return pager(def.routes.list, (page, size, deadline) =>
    sendRoute(routeName(def, "list"), route, { query: { page, size }, deadline }).then((p) => readPage(def.item, p)),
  );
}

/** Every collection's pager, by name. */
export type CollectionPagers = { readonly [C in CollectionName]: Pager<ItemOf<C>> };

/** Every collection of the table's pager: a collection added to the table is listed with no code here. */
export function collectionPagers(sendRoute: SendRoute): CollectionPagers {
  // Each pager reads its items with its own collection's item schema, so holds ItemOf<C>; neither
  // Object.fromEntries nor a schema typed per key can carry that to each key's type.
  return Object.fromEntries(
    COLLECTION_NAMES.map((c) => [c, collectionPager(sendRoute, collections[c])]),
  ) as CollectionPagers;
}
