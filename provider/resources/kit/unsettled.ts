import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { gapOf, matchesSent, readable, type ApiOutcomeUnknownError, type Listing } from "../../client/index.js";
import { PartialCreateError } from "./errors.js";
import type { KindDef, LifecycleRequest, Props } from "./kind.js";
import { Refusal } from "./refusal.js";

// An unknown outcome outlives the run (docs/flaky-service.md, "A create whose outcome is
// unknown"). A create that may have made its object, which no complete listing showed, is kept in
// the state as a partial create under a provisional id, with what a later listing needs to settle
// it. Until one does, nothing is sent for the resource: a plain `up` refuses and says what to
// run; `pulumi refresh` (or `up --refresh`, or `voiceagent recover`) settles it from a complete
// listing: the object found takes the resource (its id replaces the provisional one), or, proved
// absent, the resource leaves the state and the next `up` makes it.

/** How a provisional id begins: no object of the service has one like it. */
export const UNSETTLED_PREFIX = "unsettled-";

/**
 * The output an unsettled create records beside its inputs: the ids its collection held before
 * the create (none of them can be its object), or null when no snapshot was taken.
 */
export const UNSETTLED_OUTPUT = "unsettledCreate";

/** Whether a recorded id is the provisional id of a create not settled yet. */
export const isUnsettled = (id: string): boolean => id.startsWith(UNSETTLED_PREFIX);

/** What the messages about an unsettled create name: the kind, its collection, its adopting input. */
type Named = { kind: string; collection: string; adopt?: string | undefined };

/** The sentence every message about an unsettled create ends with: what settles it. */
function whatToRun({ kind, collection, adopt }: Named): string {
  return (
    `Nothing is sent for it until a complete listing of the service's ${collection} settles it: run \`pulumi refresh\` ` +
    "(or `pulumi up --refresh`, or `voiceagent recover --stack <stack>`) once the service lists them whole. " +
    `It takes the ${kind}'s id if the service made it; if the listing proves it absent, the resource leaves ` +
    "the state and the next `pulumi up` makes it." +
    (adopt ? ` Or, if you know which object it made, set ${adopt} to its id.` : "")
  );
}

/**
 * The create whose outcome `err` left unknown, as a partial create under a provisional id: the
 * engine records it (its inputs, and what existed before it) and the next run sends nothing for it.
 */
export function unsettledCreate(def: Named, inputs: Props, err: ApiOutcomeUnknownError): PartialCreateError {
  const id = `${UNSETTLED_PREFIX}${randomUUID()}`;
  return new PartialCreateError(
    `voiceagent:${def.kind} create failed: ${err.message.replace(/\s*$/, "")} It is recorded in the state as unsettled ` +
      `(id ${id}). ${whatToRun(def)}`,
    id,
    { ...inputs, [UNSETTLED_OUTPUT]: { before: err.unsettled?.before ? [...err.unsettled.before] : null } },
    ["create outcome unknown"],
    // Its provisional id makes the diff show a change at the next run (runtime.ts), whatever the engine recorded.
    { retriedByReasons: false },
  );
}

/** What a plain `up` (an update), or a destroy that cannot settle it, answers for an unsettled create. */
export function unsettledRefusal(def: Named, id: string, why?: string): Refusal {
  return new Refusal(
    "E_UNSETTLED",
    `voiceagent:${def.kind} ${id}: the outcome of its create is unknown: the service may have made it, and no ` +
      `complete listing has shown whether it did${why ? ` (${why})` : ""}. ${whatToRun(def)}`,
  );
}

/** What a complete listing says of an unsettled create: its object, absent, or still unknown (and why). */
export type Settled = { found: string } | { absent: true } | { unknown: string };

/** The ids an unsettled create recorded as existing before it, if it recorded them. */
function beforeOf(recorded: Props): ReadonlySet<string> | undefined {
  const u = recorded[UNSETTLED_OUTPUT];
  if (typeof u !== "object" || u === null || !("before" in u) || !Array.isArray(u.before)) return undefined;
  return new Set(u.before.filter((x): x is string => typeof x === "string"));
}

/**
 * Settles an unsettled create from its collection's listings, checked as a lost create is
 * (`reconcile.checks` times, pausing between, since a list can lag): one object made after the
 * create (absent from what it recorded as existing before), matching what it sent, with no gap in
 * the listing, is found; none in every check, each complete, is absent; anything else is unknown.
 * Without the ids from before the create, a match could be an older object: never taken.
 */
export async function settle<S extends z.ZodRawShape, R extends { id: string }, W>(
  def: KindDef<S, R, W>,
  at: LifecycleRequest,
  recorded: Props,
  body: unknown,
): Promise<Settled> {
  const before = beforeOf(recorded);
  const match = def.unsettledMatch ?? ((item: unknown, sent: unknown) => matchesSent(sent, item));
  const pager: { listing(): Promise<Listing<{ id: string }>> } = at.client.lists[def.collection];
  const { checks, checkDelayMs } = at.client.reconcile;
  let last: Settled = { unknown: "no check ran" };
  for (let check = 1; check <= Math.max(1, checks); check++) {
    if (check > 1) await sleep(checkDelayMs * 2 ** (check - 2));
    let listing: Listing<{ id: string }>;
    try {
      listing = await pager.listing();
    } catch (err) {
      return { unknown: `its list could not be read (${err instanceof Error ? err.message : String(err)})` };
    }
    const fresh = readable(listing).filter((item) => !before?.has(item.id) && match(item, body));
    const gap = gapOf(listing, before);
    if (gap !== undefined) return { unknown: `its list could not be read whole: ${gap}` };
    if (fresh.length > 1)
      return {
        unknown:
          `the list shows ${fresh.length} objects it could have made (${fresh.map((f) => f.id).join(", ")}); ` +
          `none is taken, to avoid guessing${def.adopt ? `: set ${def.adopt} to the one to keep` : ""}`,
      };
    const [one] = fresh;
    if (one) {
      // Its create sent a secret the service may not show back: nothing proves this is its object.
      if (def.recover === "adopt-only")
        return {
          unknown:
            `the list shows ${one.id}, but what the create sent cannot be compared with it` +
            (def.adopt ? `: set ${def.adopt} to it to adopt it` : ""),
        };
      if (!before)
        return {
          unknown:
            `the list shows ${one.id}, but no snapshot of what existed before the create was taken, so it may be older` +
            (def.adopt ? `: set ${def.adopt} to it to adopt it` : ""),
        };
      return { found: one.id };
    }
    last = { absent: true };
  }
  return last;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
