import { isRouteMissing } from "./capabilities.js";
import { readable, type Listing } from "./listing.js";

// Reads in pages (issue 32). A refresh reads every resource of the stack one by one: N resources,
// N requests, each a wait under a rate limit. Within a refresh the first read of a collection lists
// it instead, every page, and the process's later reads of that collection are answered from that
// listing. Every rule below keeps a listing from saying more than it saw:
// - an id the listing lacks is read on its own: a list lags behind writes, so an object missing from
//   it may be live, and a missing one is never taken for deleted (client/listing.ts: only a direct
//   read's 404, or a complete listing, shows absence, and this one is asked for presence only);
// - an item the listing could not read, or whose list form lacks what a read needs (a 2024 agent
//   whose prompt is a Prompt's id), is read on its own too;
// - a write by this client to the collection drops the listing (read-your-writes);
// - no listing outlives the refresh it was taken for: the kit closes a collection at the first
//   create, update or delete of its kind (the refresh is over; not at check or diff, which the
//   engine interleaves with a refresh's reads), and a listing older than LISTING_MAX_AGE_MS is
//   taken again;
// - a server without the list route is read one by one, as before.
// The state lives in the client, one per provider configuration: nothing here is module-level.

/** How long a listing answers reads after it was taken: a refresh's reads come in one burst. */
export const LISTING_MAX_AGE_MS = 60_000;

/** One collection's reads: by its key (an id; a number's E.164), from the listing while it is open. */
export interface PagedCollection<T> {
  /** The object with this key: from the listing when the collection is open and it holds it, else `single()`. */
  read(key: string, single: () => Promise<T>): Promise<T>;
}

/** What a collection's listing is taken with. */
export interface PagedSource<T> {
  /** Every page of the collection (the pager's `listing`). */
  list: () => Promise<Listing<T>>;
  /** The key a read names an object by. */
  keyOf: (item: T) => string;
}

/** The reads in pages of one client. */
export interface PageReads {
  /** The collection's reads are a refresh's from now on: the next one lists it. */
  open(collection: string): void;
  /** The refresh of the collection is over (or it was written): its listing is dropped and reads go one by one. */
  close(collection: string): void;
  /** A write to the collection: its listing is dropped (the next read, if still open, lists it again). */
  wrote(collection: string): void;
  /** A write's answer, the collection's listing dropped before it is sent and after it answers (read-your-writes). */
  writing<T>(collection: string, write: () => Promise<T>): Promise<T>;
  /** One collection's reads. */
  collection<T>(name: string, source: PagedSource<T>): PagedCollection<T>;
}

/** Reads in pages for one client; `now` is the clock (tests give their own). */
export function createPageReads(now: () => number = Date.now): PageReads {
  const opened = new Set<string>();
  /** Per collection, what drops its listings (one per reader: a number is read as sold and as linked). */
  const drops = new Map<string, (() => void)[]>();
  /** Collections whose list route the server lacks: read one by one for good. */
  const unlisted = new Set<string>();
  const drop = (collection: string) => {
    for (const d of drops.get(collection) ?? []) d();
  };
  return {
    open(collection) {
      opened.add(collection);
    },
    close(collection) {
      opened.delete(collection);
      drop(collection);
    },
    wrote: drop,
    async writing(collection, write) {
      drop(collection);
      try {
        return await write();
      } finally {
        drop(collection);
      }
    },
    collection<T>(name: string, source: PagedSource<T>): PagedCollection<T> {
      /** The listing taken, when: its readable objects by key, or undefined when it could not be taken. */
      let taken: { at: number; byKey: Promise<Map<string, T> | undefined> } | undefined;
      drops.set(name, [
        ...(drops.get(name) ?? []),
        () => {
          taken = undefined;
        },
      ]);
      const take = () => {
        const byKey = source.list().then(
          (listing) => new Map(readable(listing).map((item) => [source.keyOf(item), item])),
          (err: unknown) => {
            if (isRouteMissing(err)) unlisted.add(name);
            // A listing that failed only means reading one by one; the single reads report their own failures.
            return undefined;
          },
        );
        taken = { at: now(), byKey };
        return byKey;
      };
      return {
        async read(key, single) {
          if (!opened.has(name) || unlisted.has(name)) return single();
          const byKey = await (taken && now() - taken.at <= LISTING_MAX_AGE_MS ? taken.byKey : take());
          return byKey?.get(key) ?? single();
        },
      };
    },
  };
}
