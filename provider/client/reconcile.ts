import { deadlineOf } from "./budget.js";
import type { CollectionName } from "./capabilities.js";
import {
  ApiAmbiguousCreateError,
  ApiBookkeepingError,
  ApiError,
  ApiOutcomeUnknownError,
  ApiSchemaError,
} from "./errors.js";
import type { CreateLedger, Until } from "./ledger.js";
import { gapOf, readable, type Listing } from "./listing.js";
import { bodyKey } from "./match.js";
import type { ListItem, Snapshots } from "./snapshots.js";
import type { ClientOptions } from "./options.js";
import { currentScope } from "./stores.js";
import type { Transport } from "./transport.js";

/** How to make one object of a collection exactly once. */
export interface CreateOnce<T extends ListItem> {
  /** The collection whose list route shows what a create made ("agents", "calls", ...). */
  collection: CollectionName;
  /** What one object is called in messages ("agent", "call", "phone number"). */
  noun: string;
  /** The request body: creates of equal bodies are interchangeable. */
  body: unknown;
  /**
   * Dotted wire paths of the body the service may not say back as sent (credentials it masks or
   * leaves out: the collection table's `secrets`): they never tell objects apart, so bodies equal
   * but for them are identical (`bodyKey`), and `matches` and `overlaps` leave them out too.
   */
  unechoed?: readonly string[];
  /**
   * Whether an object made by a create that sent `other` could match this create: its check of the
   * list then waits for that create to answer.
   */
  overlaps(other: unknown): boolean;
  /** Sends the create once (the transport retries only failures that cannot have acted). */
  send(deadline: number): Promise<T>;
  /** Every object of the collection, all pages, and whether the listing is complete (client/listing.ts). */
  list(deadline: number): Promise<Listing<T>>;
  /** Whether a listed object is exactly what this create asked for. */
  matches(item: T): boolean;
  /**
   * At most once (calls): an attempt whose outcome is unknown and that the list does not show is
   * reported, never sent again, because a second real phone call is worse than an error.
   */
  atMostOnce?: boolean;
}

/** What one create shares with the others of its client. */
export interface CreateContext {
  transport: Transport;
  /** The ids each collection had before this client's first create of it. */
  snapshots: Snapshots;
  /** What this create shares with every other create of the account (in one process, or one deployment). */
  ledger: CreateLedger;
  options: ClientOptions;
}

/**
 * Creates an object exactly once on a service without idempotency keys. A create that fails in a
 * way that cannot have acted (a 4xx, a 429 or refused connection once retries are spent) fails as
 * it is. One whose outcome is unknown (a 5xx, a reset or timeout after sending, an unreadable
 * answer) is not a failure yet: after a pause the list is read, several times with growing pauses
 * (a slow service may still be committing, or its list may lag), and an object that was not there
 * before, that no other create took, and that matches every field sent, is adopted. None after
 * every check, each a complete listing (client/listing.ts): that attempt provably made nothing,
 * and the create is sent again until the operation's time budget is spent, however many attempts
 * that takes (calls: reported as possibly placed). None, but a check's listing was incomplete (an
 * item it could not read, pages cut short): the outcome is unknown and nothing is sent again. More
 * candidates than identical creates waiting for theirs: never a guess, an error naming them all.
 *
 * The ledger's bookkeeping can fail on its own (a deployment's ledger is a file other processes
 * lock): once the service has answered with an object, such a failure never hides it. The error
 * then carries the object's id (`ApiBookkeepingError.madeId`), so the caller keeps it tracked;
 * before that, it says whether the create had been sent.
 */
export async function createOnce<T extends ListItem>(how: CreateOnce<T>, ctx: CreateContext): Promise<T> {
  /** What is known when the bookkeeping fails: whether a create was sent, and the object it made. */
  const known: Known = { sent: false };
  try {
    return await createTracked(how, ctx, known);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw bookkeepingFailed(how, err, known);
  }
}

/** What `createOnce` knows of its create when something other than the service fails. */
interface Known {
  /** Whether any attempt was handed to the transport. */
  sent: boolean;
  /** The object the service answered with or a check adopted: it exists. */
  madeId?: string;
}

async function createTracked<T extends ListItem>(how: CreateOnce<T>, ctx: CreateContext, known: Known): Promise<T> {
  const { options, ledger, snapshots } = ctx;
  // One clock for every deadline: the transport compares them with options.now() too.
  const started = options.now();
  const { at: deadline, budgetMs } = deadlineOf(options);
  // Waits on what other processes of the deployment hold end with the operation's budget too, on a
  // clock that stops while the operation's requests wait for their turns under a learned rate limit
  // (not charged to the budget, client/paced-time.ts): a create whose turn came minutes after it was
  // registered still records its answer, and its entries still hold the other processes' checks.
  const paced = currentScope()?.paced;
  const until: Until = {
    at: deadline,
    now: paced ? () => options.now() - paced.ms(options.now()) : options.now,
  };
  // Without a snapshot (no list route, or it failed) the create is still made, once; an unknown
  // outcome is then reported honestly instead of reconciled.
  let before: Set<string> | undefined;
  let noSnapshot = "reconciliation is turned off for this client";
  if (options.reconcile.enabled) {
    try {
      before = await snapshots.of(how.collection, () => how.list(deadline));
      noSnapshot = "this server has no list route to check whether it did";
    } catch (err) {
      noSnapshot = `the list to check it against could not be read before sending (${err instanceof ApiError ? err.summary : String(err)})`;
    }
  }
  const key = bodyKey(how.body, how.unechoed);
  let last: ApiError | undefined;
  let attempts = 0;
  /**
   * The attempt before whose answer was lost, if one was: the list showed nothing for it, but a
   * list can lag, so it may have acted all the same. Whether this operation may have acted is the
   * union over its attempts: a later refusal ("already exists") then says nothing of the earlier one.
   */
  let lost: ApiError | undefined;
  // Bounded by time, not by a count: every attempt that reaches the end of this loop made nothing
  // (the list said so), so another one costs only time, and a burst of harmless 503s must not end
  // a create while most of its budget is left.
  for (;;) {
    attempts += 1;
    try {
      // The id is claimed before the gate counts this create as answered, so no check can see
      // the object unclaimed once its create has heard back.
      return await ledger.send(
        how.collection,
        how.body,
        async () => {
          try {
            known.sent = true;
            const made = await how.send(deadline);
            known.madeId = made.id;
            return await claimed(how, ctx, made, until);
          } catch (err) {
            // The object exists; only its answer was unreadable: the caller keeps it by its id.
            if (err instanceof ApiSchemaError && err.receivedId) {
              known.madeId = err.receivedId;
              if (!(await ledger.claim(err.receivedId, until))) throw takenTwice(how, err, err.receivedId);
            }
            // Counted as waiting for its object before it stops counting as in flight: a check that
            // no longer waits for it then knows one more identical object may be unclaimed.
            if (before && willSettle(err)) await ledger.unsettle(how.collection, key, 1, until);
            throw err;
          }
        },
        until,
      );
    } catch (err) {
      // A refusal after a lost attempt says nothing of that attempt (see `lost`).
      if (lost && err instanceof ApiError && !err.mayHaveActed) throw afterLost(how, err, lost, before);
      if (!willSettle(err)) throw err;
      if (!before) throw unknownOutcome(how, err, noSnapshot, before);
      last = err;
      lost = err;
      const found = await settle(how, ctx, err, before, key, until, known);
      if (found) return found;
      if (how.atMostOnce) {
        throw new ApiOutcomeUnknownError(
          `${err.summary}. The service may have placed the ${how.noun}: ${checked(options)} showed no new ${how.noun} matching this request, ` +
            `but a slow service can show it later. It is not sent again (${article(how.noun)} is made at most once): ` +
            `look for it in the service's ${how.collection} before placing it again.`,
          { ...details(err), mayHaveActed: true },
          { before: [...before] },
        );
      }
      if (options.now() >= deadline) break;
    }
  }
  const summary = last?.summary ?? `POST ${how.noun}`;
  const spent = Math.round((options.now() - started) / 1000);
  throw new ApiOutcomeUnknownError(
    `${summary}. The operation's time budget (${seconds(budgetMs)}) is spent: ${attempts} attempts in ${spent}s, ` +
      `each checked ${options.reconcile.checks} times, and the list shows that none of them made ${article(how.noun)}.`,
    { ...(last ? details(last) : { status: 0, method: "POST", path: "" }), mayHaveActed: false },
  );
}

/** Whether a failed attempt goes on to a check of the list: its outcome is unknown, and nothing else settled it. */
function willSettle(err: unknown): err is ApiError {
  // An unknown outcome here is an id answered twice (see `claimed`): settled already.
  if (!(err instanceof ApiError) || !err.mayHaveActed || err instanceof ApiOutcomeUnknownError) return false;
  return !(err instanceof ApiSchemaError && err.receivedId);
}

/** Claims the id a create answered with; one already taken means two creates got one object. */
async function claimed<T extends ListItem>(how: CreateOnce<T>, ctx: CreateContext, made: T, until: Until): Promise<T> {
  if (await ctx.ledger.claim(made.id, until)) return made;
  throw new ApiOutcomeUnknownError(
    `POST ${how.collection}: the service answered with ${how.noun} ${made.id}, which another create of this client already holds. ` +
      `The service made or reused it; look for the ${how.noun} in its ${how.collection} before running the command again.`,
    { status: 200, method: "POST", path: "", mayHaveActed: true },
  );
}

/**
 * Checks the list after an unknown outcome, `reconcile.checks` times, pausing before each check
 * (never at once: a service may still be committing). Returns the object adopted, or undefined
 * when no check showed one and every check's listing was complete; when one was not, the outcome
 * is unknown (thrown), never a reason to send again. The create counts as waiting for its object
 * (`unsettle`, done by its attempt) until a check picks one for it or it gives up.
 */
async function settle<T extends ListItem>(
  how: CreateOnce<T>,
  ctx: CreateContext,
  err: ApiError,
  before: Set<string>,
  key: string,
  until: Until,
  known: Known,
): Promise<T | undefined> {
  const deadline = until.at;
  const { options, ledger, transport } = ctx;
  let settled = false;
  /** Why some check's listing could not show the object absent (the last one seen). */
  let gap: string | undefined;
  try {
    for (let check = 1; check <= options.reconcile.checks; check++) {
      await sleep(checkDelay(options, check));
      /** Tells the request log where this check stands: waiting for other creates, or adopted. */
      const note = (event: "waiting" | "reconciled") =>
        transport.log({
          event,
          method: err.method,
          path: err.path,
          status: err.status,
          attempt: check,
          durationMs: 0,
          headers: {},
        });
      const one = await ledger.check(
        how.collection,
        how.overlaps,
        async () => {
          let listing: Listing<T>;
          try {
            listing = await how.list(deadline);
          } catch (listErr) {
            const why = listErr instanceof ApiError ? listErr.summary : String(listErr);
            throw unknownOutcome(how, err, `checking through the list failed (${why})`, before);
          }
          const found = readable(listing).filter((item) => !before.has(item.id) && how.matches(item));
          // Creates of this very body whose outcome is unknown may each have made one of these:
          // with identical bodies, any of them is right for any of those creates.
          const pick = await ledger.pick(
            how.collection,
            key,
            found.map((f) => f.id),
            until,
          );
          if ("ambiguous" in pick) throw ambiguous(how, err, pick.ambiguous);
          if ("none" in pick) {
            // No object for this create in what could be read: proof only if nothing was left unread.
            gap = gapOf(listing, before) ?? gap;
            return undefined;
          }
          settled = true;
          known.madeId = pick.id;
          return found.find((f) => f.id === pick.id);
        },
        () => note("waiting"),
        until,
      );
      if (one) {
        note("reconciled");
        return one;
      }
    }
    if (gap !== undefined)
      throw unknownOutcome(
        how,
        err,
        `the list cannot show that it did not: ${gap}. It is not sent again: look for the ${how.noun} in the service's ` +
          `${how.collection} before making it again`,
        before,
      );
    return undefined;
  } finally {
    if (!settled) await ledger.unsettle(how.collection, key, -1, until);
  }
}

/** The pause before check n: growing, with jitter, at most `retry.maxDelayMs`. */
function checkDelay(options: ClientOptions, check: number): number {
  const exp = Math.min(options.retry.maxDelayMs, options.reconcile.checkDelayMs * 2 ** (check - 1));
  return Math.round(exp / 2 + Math.random() * (exp / 2));
}

function checked(options: ClientOptions): string {
  const { checks } = options.reconcile;
  return checks === 1 ? "one check of the list" : `${checks} checks of the list, with pauses between them,`;
}

/** "an agent", "a call": the noun with its indefinite article. */
function article(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;
}

/** A budget in whole seconds, as a person reads it ("120s"). */
function seconds(ms: number): string {
  return `${Math.round(ms / 1000)}s`;
}

function details(err: ApiError) {
  return {
    status: err.status,
    method: err.method,
    path: err.path,
    requestId: err.requestId,
    attempts: err.attempts,
    summary: err.summary,
  };
}

/** A create that may have made its object, which nothing showed: kept unsettled with what existed `before` it. */
function unknownOutcome<T extends ListItem>(
  how: CreateOnce<T>,
  err: ApiError,
  why: string,
  before: ReadonlySet<string> | undefined,
): ApiOutcomeUnknownError {
  return new ApiOutcomeUnknownError(
    `${err.summary}. The service may have made the ${how.noun}, and ${why}.`,
    { ...details(err), mayHaveActed: true },
    { before: before ? [...before] : undefined },
  );
}

/**
 * A failure of an attempt sent again after an earlier one's answer was lost (`lost`) and the list
 * did not show its object: the earlier attempt may have made it all the same (a list can lag), so
 * the operation may have acted, whatever this attempt's own answer says (a refusal because the
 * object already exists is the likeliest). Kept unsettled, as any create that may have acted.
 */
function afterLost<T extends ListItem>(
  how: CreateOnce<T>,
  err: ApiError,
  lost: ApiError,
  before: ReadonlySet<string> | undefined,
): ApiOutcomeUnknownError {
  return unknownOutcome(
    how,
    lost,
    `it was sent again after the list did not show it, which failed (${err.summary}); a list can lag, so that refusal ` +
      `does not show that nothing was made. It is not sent again: look for the ${how.noun} in the service's ` +
      `${how.collection} before making it again`,
    before,
  );
}

/**
 * A failure of the ledger itself (not of the service) during a create, as an ApiError that says
 * what the service did: made the object (its id kept, for the caller to track), may have made it
 * (sent, no answer read), or was never asked.
 */
function bookkeepingFailed<T extends ListItem>(how: CreateOnce<T>, err: unknown, known: Known): ApiBookkeepingError {
  const why = err instanceof Error ? err.message : String(err);
  const where = { status: 0, method: "POST", path: "" };
  const record = `this process's record of creates, shared with the other provider processes of its deployment, failed (${why})`;
  if (known.madeId !== undefined) {
    const summary = `POST ${how.collection}: the service made ${how.noun} ${known.madeId}, then ${record}`;
    return new ApiBookkeepingError(
      `${summary}. The ${how.noun} exists; keep it by its id, it must not be made again.`,
      { ...where, summary },
      known.madeId,
    );
  }
  if (known.sent) {
    const summary = `POST ${how.collection}: the request was sent, then ${record}`;
    return new ApiBookkeepingError(`${summary}. The service may have made the ${how.noun}.`, {
      ...where,
      summary,
      mayHaveActed: true,
    });
  }
  const summary = `POST ${how.collection} was not sent: ${record}`;
  return new ApiBookkeepingError(`${summary}. The service did not act on it.`, {
    ...where,
    summary,
    mayHaveActed: false,
  });
}

function takenTwice<T extends ListItem>(how: CreateOnce<T>, err: ApiError, id: string): ApiOutcomeUnknownError {
  return new ApiOutcomeUnknownError(
    `${err.summary}. The service made ${how.noun} ${id}, which another create of this client already holds; ` +
      `look for the ${how.noun} in its ${how.collection} before running the command again.`,
    { ...details(err), mayHaveActed: true },
  );
}

function ambiguous<T extends ListItem>(how: CreateOnce<T>, err: ApiError, ids: string[]): ApiAmbiguousCreateError {
  return new ApiAmbiguousCreateError(
    `${err.summary}. The list shows ${ids.length} new ${how.noun}s matching this request exactly (${ids.join(", ")}); ` +
      "none was taken, to avoid guessing.",
    details(err),
    ids,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
