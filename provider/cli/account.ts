import {
  createClient,
  isRouteMissing,
  listingOf,
  readable,
  type CollectionName,
  type IncompleteListing,
  type Listing,
  type Page,
} from "../client/index.js";
import { COLLECTION_WORDS } from "../resources/kinds/collection-words.js";
import { collections, type ItemOf } from "../schemas/index.js";
import type { Credentials } from "./credentials.js";
import { cliError } from "./errors.js";
import { ACCOUNT_COLLECTIONS, type AccountCollection } from "./kinds.js";

/**
 * Everything of an account that pull and audit look at, by collection (every collection of the
 * wire table an account holds, resources/kinds/collection-words.ts), plus `gaps`: the collections
 * whose listing was not complete (client/listing.ts), with what it left unread: their arrays hold
 * what could be read, and cannot show an object absent. Ask `gapOf`.
 */
export type Account = { [C in AccountCollection]: ItemOf<C>[] } & { gaps: Gaps };

/** Per collection (calls included, for recover), the incomplete listing it came from. */
export type Gaps = { [C in CollectionName]?: IncompleteListing<{ id: string }> };

/** What reading the account cost. */
export interface ReadStats {
  /** HTTP attempts sent (retries included). */
  requests: number;
  durationMs: number;
}

/** The largest page the list endpoints serve. */
const PAGE_SIZE = 100;

/** An empty account, for `--only` and tests. */
export function emptyAccount(): Account {
  // Object.fromEntries cannot carry each key's own item type; every array starts empty.
  const lists: { [C in AccountCollection]: ItemOf<C>[] } = Object.fromEntries(
    Object.keys(COLLECTION_WORDS).map((c) => [c, []]),
  ) as Record<AccountCollection, never[]>;
  return { ...lists, gaps: {} };
}

/**
 * Reads the collections asked for (all by default). Each collection's first page gives the
 * total; the other pages are then asked for at once, so the client's concurrency cap, not a
 * page-after-page loop, sets the pace of a large account.
 */
export async function readAccount(
  creds: Credentials,
  only: readonly AccountCollection[] = ACCOUNT_COLLECTIONS,
): Promise<{ account: Account; stats: ReadStats }> {
  let requests = 0;
  const client = createClient({
    ...creds,
    onRequest: (e) => {
      if (e.event !== "error") requests += 1;
    },
  });
  const started = performance.now();
  const account = emptyAccount();
  try {
    const fill = async <C extends AccountCollection>(c: C) => {
      const listing = await listAll<ItemOf<C>>(client.lists[c].page).catch((err: unknown) => {
        // A collection only the current API has is missing from a service of the interface:
        // such an account holds none (its list answers 404), which is no failure to read it.
        if (collections[c].generation === "2024" && isRouteMissing(err)) return listingOf<ItemOf<C>>([], [], undefined);
        throw err;
      });
      Object.assign(account, { [c]: [...readable(listing)] });
      if (!listing.complete) account.gaps[c] = listing;
    };
    await Promise.all(only.map(fill));
  } catch (err) {
    throw cliError(err, creds.baseUrl);
  }
  return { account, stats: { requests, durationMs: performance.now() - started } };
}

type Lister<T> = (page: number, size: number) => Promise<Page<T>>;

/**
 * Every item of one list endpoint, and whether that is all of them (client/listing.ts). Pages past
 * the first are fetched together; if the list grew meanwhile the last page says `has_more` and the
 * rest is read page by page. Items that moved between pages while reading are kept once; fewer
 * than the service counts (a row skipped while it moved) leaves the listing incomplete.
 */
export async function listAll<T extends { id: string }>(list: Lister<T>): Promise<Listing<T>> {
  const first = await list(1, PAGE_SIZE);
  const pageCount = Math.max(1, Math.ceil(first.total / PAGE_SIZE));
  const rest = await Promise.all(Array.from({ length: pageCount - 1 }, (_, i) => list(i + 2, PAGE_SIZE)));
  const pages = [first, ...rest];
  let cut: string | undefined;
  for (let next = pageCount + 1, last = pages.at(-1); last?.has_more; next++) {
    if (last.items.length + (last.unreadable?.length ?? 0) === 0) {
      cut = `page ${next - 1} came back empty though it said there was more`;
      break;
    }
    last = await list(next, PAGE_SIZE);
    pages.push(last);
  }
  const byId = new Map<string, T>();
  for (const p of pages) for (const item of p.items) if (!byId.has(item.id)) byId.set(item.id, item);
  const unreadable = pages.flatMap((p) => p.unreadable ?? []);
  const ids = new Set([...byId.keys(), ...unreadable.flatMap((u) => u.id ?? [])]);
  const seen = ids.size + unreadable.filter((u) => u.id === undefined).length;
  const total = Math.max(...pages.map((p) => p.total));
  const estimated = pages.some((p) => p.total_is_estimated === true);
  if (cut === undefined && !estimated && seen < total)
    cut = `the service counts ${total} objects, and the pages showed ${seen}`;
  return listingOf([...byId.values()], unreadable, cut);
}
