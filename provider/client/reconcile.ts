import { isRouteMissing, type Capabilities, type ExtensionKind } from "./capabilities.js";
import { ApiAmbiguousCreateError, ApiError, ApiOutcomeUnknownError, ApiSchemaError } from "./errors.js";
import type { ClientOptions } from "./options.js";
import type { Transport } from "./transport.js";

/** An object the service lists: all that reconciliation needs is its id. */
interface Listed {
  id: string;
}

/** How to make one kind of object exactly once. */
export interface CreateOnce<T extends Listed> {
  /** The family whose list route shows what a create made ("agents", "calls", ...). */
  kind: ExtensionKind;
  /** What one object is called in messages ("agent", "call", "phone number"). */
  noun: string;
  /** Sends the create once (the transport retries only failures that cannot have acted). */
  send(deadline: number): Promise<T>;
  /** Every object of the kind, all pages. */
  list(deadline: number): Promise<T[]>;
  /** Whether a listed object is exactly what this create asked for. */
  matches(item: T): boolean;
  /**
   * At most once (calls): an attempt whose outcome is unknown and that the list does not show is
   * reported, never sent again, because a second real phone call is worse than an error.
   */
  atMostOnce?: boolean;
}

/**
 * What a client knows about the objects of each kind: the ids that existed before its first create
 * of that kind (so an object someone else made is never taken for ours), and the ids it created or
 * adopted since (so two creates never take the same object).
 */
export class CreateLedger {
  private readonly before = new Map<ExtensionKind, Promise<Set<string> | undefined>>();
  private readonly claimed = new Set<string>();

  constructor(private readonly caps: Capabilities) {}

  /** The ids that existed before this client's first create of `kind`; undefined without a list route. */
  snapshot(kind: ExtensionKind, list: () => Promise<Listed[]>): Promise<Set<string> | undefined> {
    let ids = this.before.get(kind);
    if (!ids) {
      ids = list().then(
        (items) => {
          this.caps.learn(kind, true);
          return new Set(items.map((i) => i.id));
        },
        (err: unknown) => {
          if (isRouteMissing(err)) {
            this.caps.learn(kind, false);
            return undefined;
          }
          this.before.delete(kind);
          throw err;
        },
      );
      this.before.set(kind, ids);
    }
    return ids;
  }

  /** Marks an id as made or adopted by this client. */
  claim(id: string): void {
    this.claimed.add(id);
  }

  /** True when the id was neither there before nor taken by another create. */
  isNew(id: string, before: Set<string>): boolean {
    return !before.has(id) && !this.claimed.has(id);
  }
}

/**
 * Creates an object exactly once on a service without idempotency keys. A create that fails in a
 * way that cannot have acted (a 4xx, a 429 or refused connection once retries are spent) fails as
 * it is. One whose outcome is unknown (a 5xx, a reset or timeout after sending, an unreadable
 * answer) is not a failure yet: the list is read and an object that was not there before, that
 * no other create took, and that matches every field sent, is adopted. None: the create is sent
 * again (calls: reported instead). Two or more: never a guess, an error naming them all.
 */
export async function createOnce<T extends Listed>(
  how: CreateOnce<T>,
  ctx: { transport: Transport; ledger: CreateLedger; options: ClientOptions },
): Promise<T> {
  const { options, ledger, transport } = ctx;
  const deadline = Date.now() + options.retry.budgetMs;
  // Without a snapshot (no list route, or it failed) the create is still made, once; an unknown
  // outcome is then reported honestly instead of reconciled.
  let before: Set<string> | undefined;
  let noSnapshot = "reconciliation is turned off for this client";
  if (options.reconcile.enabled) {
    try {
      before = await ledger.snapshot(how.kind, () => how.list(deadline));
      noSnapshot = "this server has no list route to check whether it did";
    } catch (err) {
      noSnapshot = `the list to check it against could not be read before sending (${err instanceof ApiError ? err.summary : String(err)})`;
    }
  }
  let last: ApiError | undefined;
  for (let attempt = 1; attempt <= options.reconcile.attempts; attempt++) {
    try {
      const made = await how.send(deadline);
      ledger.claim(made.id);
      return made;
    } catch (err) {
      if (!(err instanceof ApiError) || !err.mayHaveActed) throw err;
      // The object exists; only its answer was unreadable: the caller keeps it by its id.
      if (err instanceof ApiSchemaError && err.receivedId) {
        ledger.claim(err.receivedId);
        throw err;
      }
      if (!before) throw unknownOutcome(how, err, noSnapshot);
      last = err;
      let found: T[];
      try {
        found = (await how.list(deadline)).filter((item) => ledger.isNew(item.id, before) && how.matches(item));
      } catch (listErr) {
        const why = listErr instanceof ApiError ? listErr.summary : String(listErr);
        throw unknownOutcome(how, err, `checking through the list failed (${why})`);
      }
      if (found.length > 1) throw ambiguous(how, err, found.map((f) => f.id));
      const [one] = found;
      if (one) {
        ledger.claim(one.id);
        transport.log({ event: "reconciled", method: err.method, path: err.path, status: err.status, attempt, durationMs: 0, headers: {} });
        return one;
      }
      if (how.atMostOnce) {
        throw new ApiOutcomeUnknownError(
          `${err.summary}. The list shows no new ${how.noun} matching this request, so it was most likely not made; ` +
            `it is not sent again automatically (a ${how.noun} is made at most once).`,
          { ...details(err), mayHaveActed: false },
        );
      }
      if (Date.now() >= deadline) break;
      await sleep(Math.min(options.retry.maxDelayMs, options.retry.baseDelayMs * 2 ** (attempt - 1)));
    }
  }
  const summary = last?.summary ?? `POST ${how.noun}`;
  throw new ApiOutcomeUnknownError(
    `${summary}. After ${options.reconcile.attempts} attempts the list shows that none of them made a ${how.noun}.`,
    { ...(last ? details(last) : { status: 0, method: "POST", path: "" }), mayHaveActed: false },
  );
}

function details(err: ApiError) {
  return { status: err.status, method: err.method, path: err.path, requestId: err.requestId, attempts: err.attempts, summary: err.summary };
}

function unknownOutcome<T extends Listed>(how: CreateOnce<T>, err: ApiError, why: string): ApiOutcomeUnknownError {
  return new ApiOutcomeUnknownError(
    `${err.summary}. The service may have made the ${how.noun}, and ${why}.`,
    { ...details(err), mayHaveActed: true },
  );
}

function ambiguous<T extends Listed>(how: CreateOnce<T>, err: ApiError, ids: string[]): ApiAmbiguousCreateError {
  return new ApiAmbiguousCreateError(
    `${err.summary}. The list shows ${ids.length} new ${how.noun}s matching this request exactly (${ids.join(", ")}); ` +
      "none was taken, to avoid guessing.",
    details(err),
    ids,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
