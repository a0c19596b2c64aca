import {
  createClient,
  listingOf,
  readable,
  type Action,
  type Agent,
  type Collection,
  type IncompleteListing,
  type Listing,
  type Page,
  type PhoneNumber,
  type VoiceAgentClient,
  type Voice,
  type Webhook,
} from "../client/index.js";
import type { Credentials } from "./credentials.js";
import { cliError } from "./errors.js";
import { ACCOUNT_COLLECTIONS, type AccountCollection } from "./kinds.js";

/** Everything of an account that pull and audit look at, by collection. */
export interface Account {
  voices: Voice[];
  actions: Action[];
  webhooks: Webhook[];
  agents: Agent[];
  numbers: PhoneNumber[];
  /**
   * The collections whose listing was not complete (client/listing.ts), with what it left unread:
   * their arrays hold what could be read, and cannot show an object absent. Ask `gapOf`.
   */
  gaps: Gaps;
}

/** Per collection (calls included, for recover), the incomplete listing it came from. */
export type Gaps = { [C in Collection]?: IncompleteListing<{ id: string }> };

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
  return { voices: [], actions: [], webhooks: [], agents: [], numbers: [], gaps: {} };
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
  const lists = listers(client);
  try {
    const fill = async <C extends AccountCollection>(c: C) => {
      const listing: Listing<Account[C][number]> = await listAll(lists[c]);
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

function listers(client: VoiceAgentClient): { [C in AccountCollection]: Lister<Account[C][number]> } {
  return {
    voices: client.voices.list.page,
    actions: client.actions.list.page,
    webhooks: client.webhooks.list.page,
    agents: client.agents.list.page,
    numbers: client.numbers.list.page,
  };
}

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
