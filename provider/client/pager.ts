import type { z } from "zod";
import { readItems, type Page, type PageRead } from "../schemas/index.js";

/** One list route's pages. */
export type FetchPage<T> = (page: number, size: number, deadline?: number) => Promise<Page<T>>;

/** A page as sent, its items read one by one with `schema` (an unreadable one is counted, not fatal). */
export function readPage<T extends z.ZodType>(schema: T, page: PageRead): Page<z.output<T>> {
  const { items, unreadable } = readItems(schema, page.items);
  return { ...page, items, unreadable };
}

/** How many times `all()` reads every page when it saw fewer objects than the service counts. */
const PASSES = 3;

/**
 * `page(n)` for one page, `all()` for every object. Pages are by offset, so an object made or
 * moved while they are read shifts the rest: a row can come twice (the last of one page is the
 * first of the next) or be skipped. `all()` keeps each id once, and reads the pages again while
 * it holds fewer objects than the last page's `total` (a skipped row), at most three passes.
 */
export function pager<T extends { id: string }>(fetch: FetchPage<T>) {
  return {
    /** One page as the service sends it (size 50 unless asked). */
    page: (page = 1, size = 50) => fetch(page, size),
    /** Every object, each id once, in the order first seen (pages of 100). */
    all: async (deadline?: number): Promise<T[]> => {
      const byId = new Map<string, T>();
      for (let pass = 1; pass <= PASSES; pass++) {
        let total = 0;
        let unreadable = 0;
        let estimated = false;
        for (let page = 1; ; page++) {
          const res = await fetch(page, 100, deadline);
          for (const item of res.items) if (!byId.has(item.id)) byId.set(item.id, item);
          total = res.total;
          unreadable += res.unreadable ?? 0;
          estimated ||= res.total_is_estimated === true;
          if (!res.has_more || res.items.length + (res.unreadable ?? 0) === 0) break;
        }
        // An estimated total (the current API says so) is no sign of a skipped row.
        if (estimated || byId.size + unreadable >= total) break;
      }
      return [...byId.values()];
    },
  };
}
