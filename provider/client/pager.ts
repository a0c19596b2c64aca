import type { Page } from "../schemas/index.js";

/** One list route's pages. */
export type FetchPage<T> = (page: number, size: number, deadline?: number) => Promise<Page<T>>;

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
        for (let page = 1; ; page++) {
          const res = await fetch(page, 100, deadline);
          for (const item of res.items) if (!byId.has(item.id)) byId.set(item.id, item);
          total = res.total;
          if (!res.has_more || res.items.length === 0) break;
        }
        if (byId.size >= total) break;
      }
      return [...byId.values()];
    },
  };
}
