import type { UnreadableItem } from "../schemas/index.js";

// The absence rule (ARCHITECTURE.md, "What shows an object absent"), in one place: `gapOf`.
// A listing is complete when every page was read up to the one that says there is no more and
// every item parsed by its schema. Only a complete listing taken after the write can show an
// object absent; anything less leaves the outcome unknown, and an unknown outcome is never a
// reason to act again. A 404 of a direct read (`GET ?id=`) is the other proof, and lives with
// the callers that read one object.

/** Every object of a list route, each id once, with the proof that nothing was left out. */
export interface CompleteListing<T> {
  readonly complete: true;
  readonly items: readonly T[];
}

/**
 * The objects of a list route that could be read, and what kept the listing from being whole.
 * They are `readable`, not `items`: code written for a whole collection does not compile on one.
 */
export interface IncompleteListing<T> {
  readonly complete: false;
  /** The readable objects: each is there (presence needs no complete listing). */
  readonly readable: readonly T[];
  /** Items sent but not readable by their schema (each with its id when it showed one). */
  readonly unreadable: readonly UnreadableItem[];
  /** Why the pages stopped short of the last one, if they did. */
  readonly cut?: string | undefined;
}

/** What one list route showed; only the `complete` one can show an object absent. */
export type Listing<T> = CompleteListing<T> | IncompleteListing<T>;

/**
 * A listing of `items`, complete when no item was unreadable and the pages were not `cut` short.
 * Unreadable items whose id a readable one also has (it moved and was read again) are no gap.
 */
export function listingOf<T extends { id: string }>(
  items: readonly T[],
  unreadable: readonly UnreadableItem[],
  cut?: string,
): Listing<T> {
  const read = new Set(items.map((i) => i.id));
  const missing = unreadable.filter((u) => u.id === undefined || !read.has(u.id));
  if (missing.length === 0 && cut === undefined) return { complete: true, items };
  return { complete: false, readable: items, unreadable: missing, ...(cut === undefined ? {} : { cut }) };
}

/**
 * Every object the listing could read (all of them, when it is complete). What it holds is there;
 * what it lacks is absent only if `gapOf` says so.
 */
export function readable<T>(listing: Listing<T>): readonly T[] {
  return listing.complete ? listing.items : listing.readable;
}

/**
 * THE rule: why `listing` cannot show an object absent, or undefined when it can. `excluded`
 * holds ids that cannot be the object looked for (those that existed before the write, those
 * another resource manages): an unreadable item showing one of them is no gap.
 */
export function gapOf<T>(listing: Listing<T>, excluded?: ReadonlySet<string>): string | undefined {
  if (listing.complete) return undefined;
  const open = listing.unreadable.filter((u) => u.id === undefined || !excluded?.has(u.id));
  const parts: string[] = [];
  if (listing.cut !== undefined) parts.push(listing.cut);
  if (open.length > 0) parts.push(describeUnreadable(open));
  return parts.length ? parts.join("; ") : undefined;
}

/** What a listing says of the objects `match` picks: seen, proved absent, or unknown (and why). */
export type Sighting<T> = { seen: T[] } | { absent: true } | { unknown: string };

/**
 * Looks for the objects `match` picks: any readable one is seen (a listing need not be complete to
 * show what it holds); none is absence only when `gapOf` finds no gap, else the outcome is unknown.
 */
export function lookFor<T>(
  listing: Listing<T>,
  match: (item: T) => boolean,
  excluded?: ReadonlySet<string>,
): Sighting<T> {
  const seen = readable(listing).filter(match);
  if (seen.length > 0) return { seen };
  const gap = gapOf(listing, excluded);
  return gap === undefined ? { absent: true } : { unknown: gap };
}

/** Looks for the object with this id: an unreadable item that shows another id cannot be it. */
export function lookForId<T extends { id: string }>(listing: Listing<T>, id: string): Sighting<T> {
  const others = listing.complete
    ? []
    : listing.unreadable.flatMap((u) => (u.id !== undefined && u.id !== id ? [u.id] : []));
  return lookFor(listing, (item) => item.id === id, new Set(others));
}

/** "2 items could not be read (3f1c…: user_id: expected string; an item without an id: …)". */
function describeUnreadable(items: readonly UnreadableItem[]): string {
  const shown = items.slice(0, 3).map((u) => `${u.id ?? "an item without an id"}: ${u.why}`);
  const more = items.length > shown.length ? `; and ${items.length - shown.length} more` : "";
  const count = items.length === 1 ? "1 item" : `${items.length} items`;
  return `${count} of the list could not be read (${shown.join("; ")}${more})`;
}
