import { gapOf, matchesSent, type CollectionName } from "../client/index.js";
import { collections } from "../schemas/index.js";
import { createBodyFor } from "../dynamic/runtimes.js";
import type { Account } from "./account.js";
import { kindOfType } from "../identity.js";
import { ADOPT_INPUTS, COLLECTION_OF, KIND_NAMES, RECOVER_MATCH, type KindName } from "./kinds.js";
import type { PendingOperation } from "./stack-export.js";

/** What recover does with one pending create of this provider. */
export interface Decision {
  urn: string;
  kind: KindName;
  /**
   * adopt: the object it made is known and becomes a resource of the state; clear: it made
   * nothing, the next `up` makes it; unresolved: not known, named and never guessed.
   */
  outcome: "adopt" | "clear" | "unresolved";
  id?: string;
  candidates?: string[];
  /** For an unresolved create: the argument that adopts a candidate, to paste into the program. */
  paste?: string[];
  why: string;
}

/** The live objects recover may match, with calls (which `Account` does not hold). */
export interface Live extends Account {
  calls: { id: string; status?: string | null | undefined }[];
}

/** What recover knows besides the account: who manages what, and what existed before the run. */
export interface Evidence {
  /** Every id a stack manages, with the stack's name (the recovered stack's own included). */
  managed: ReadonlyMap<string, string>;
  /** The ids of `voiceagent snapshot` taken before the interrupted run; undefined: none given. */
  before?: ReadonlySet<string> | undefined;
  /** URNs of the recovered stack's live resources: a pending create under one is a replacement. */
  urns: ReadonlySet<string>;
}

/** Whether a pending operation is a create of this provider (dynamic or native types). */
export function isOwnCreate(op: PendingOperation): boolean {
  return op.type === "creating" && kindOfType(op.resource.type, KIND_NAMES) !== undefined;
}

/**
 * Decides, for each pending create of this provider, what it made. An object is adopted only on
 * evidence: the id its adopt input names, or an object that matches the body the create sent
 * exactly, that no stack manages, that no other pending create took, and that the snapshot taken
 * before the run did not list. Without a snapshot a match could be an object that existed before
 * the run (another project's, a person's): it is reported with the line that adopts it, never
 * taken. A create under the URN of a resource still in the state (a replacement) is never settled.
 */
export function decide(pending: PendingOperation[], evidence: Evidence, live: Live): Decision[] {
  const taken = new Set<string>();
  return pending.flatMap((op): Decision[] => {
    const { urn, type, inputs = {} } = op.resource;
    const kind = kindOfType(type, KIND_NAMES);
    if (!kind) return [];
    const d = decideOne(urn, kind, inputs, evidence, live, taken);
    if (d.outcome === "adopt" && d.id) taken.add(d.id);
    return [d];
  });
}

function decideOne(
  urn: string,
  kind: KindName,
  inputs: Record<string, unknown>,
  ev: Evidence,
  live: Live,
  taken: Set<string>,
): Decision {
  const managedBy = (id: string) => ev.managed.get(id);
  if (ev.urns.has(urn)) {
    return {
      urn,
      kind,
      outcome: "unresolved",
      why:
        "a replacement of a resource still in the state: recover does not settle replacements; `voiceagent audit` " +
        "lists the new object if it was made",
    };
  }
  const match = RECOVER_MATCH[kind];
  if (match === "rebind")
    return {
      urn,
      kind,
      outcome: "clear",
      why: "a binding: the next up binds the number again (binding twice is harmless)",
    };
  if (match === "number") return decideNumber(urn, kind, inputs, ev, live, taken);
  const adoptInput = ADOPT_INPUTS[kind];
  const adoptId = adoptInput ? inputs[adoptInput] : undefined;
  if (typeof adoptId === "string") {
    const by = managedBy(adoptId);
    if (by)
      return {
        urn,
        kind,
        outcome: "unresolved",
        candidates: [adoptId],
        why: `${adoptInput} names ${adoptId}, which stack ${by} manages: not adopted twice`,
      };
    return { urn, kind, outcome: "adopt", id: adoptId, why: `the object ${adoptInput} names` };
  }
  const collection = COLLECTION_OF[kind];
  if (match === "adopt-only") {
    const offered = collection
      ? live[collection].map((item: { id: string }) => item.id).filter((id) => !managedBy(id) && !taken.has(id))
      : [];
    return {
      urn,
      kind,
      outcome: "unresolved",
      candidates: offered,
      ...withPaste(adoptInput && offered.length ? offered.map((id) => `${adoptInput}: "${id}"`) : undefined),
      why:
        `its create sends a secret, which the state holds encrypted and the service may not show back, so nothing ` +
        `proves which ${kind} (if any) it made: if one of the candidates is it, set ${adoptInput ?? "its adopt input"} ` +
        `to it; else the next up creates it`,
    };
  }
  const body = createBodyFor(kind, inputs);
  if (!body || !collection)
    return { urn, kind, outcome: "unresolved", why: "its recorded inputs do not say what was sent" };
  // Every status counts, an ended call included: a call placed by the interrupted run has
  // usually ended by the time recover runs, and it is still proof that the create arrived.
  const items: { id: string }[] = live[collection];
  // A credential the service may mask or leave out never decides (the collection table's secrets).
  const matching = items.filter((item) => matchesSent(body, item, collections[collection].secrets));
  const unmanaged = matching.filter((item) => !managedBy(item.id) && !taken.has(item.id)).map((item) => item.id);
  // "It never reached the service" needs a complete listing (client/listing.ts): an item the list
  // could not read may be the object this create made.
  const gap = unread(live, collection, ev, taken);
  if (unmanaged.length === 0 && gap !== undefined) return unknownReach(urn, kind, collection, gap);
  if (unmanaged.length === 0) {
    const stacks = [...new Set(matching.flatMap((m) => managedBy(m.id) ?? []))];
    const why = stacks.length
      ? `every object matching what it sent is managed (stack ${stacks.join(", ")}) or taken: it never reached the service`
      : "no object matches what it sent: it never reached the service";
    return { urn, kind, outcome: "clear", why };
  }
  const paste = (ids: string[]) => (adoptInput ? ids.map((id) => `${adoptInput}: "${id}"`) : undefined);
  if (!ev.before) {
    return {
      urn,
      kind,
      outcome: "unresolved",
      candidates: unmanaged,
      ...withPaste(paste(unmanaged)),
      why:
        `${unmanaged.length} object(s) no stack manages match what it sent, and without a snapshot from before the ` +
        `run (\`voiceagent snapshot\`, then recover --before) nothing shows this run made one rather than someone before it`,
    };
  }
  const before = ev.before;
  const fresh = unmanaged.filter((id) => !before.has(id));
  if (fresh.length === 0 && gap !== undefined) return unknownReach(urn, kind, collection, gap);
  if (fresh.length === 0)
    return {
      urn,
      kind,
      outcome: "clear",
      why: "every matching object no stack manages existed before the run: it never reached the service",
    };
  if (fresh.length > 1)
    return {
      urn,
      kind,
      outcome: "unresolved",
      candidates: fresh,
      ...withPaste(paste(fresh)),
      why: `${fresh.length} objects made since the snapshot match exactly; none is taken`,
    };
  return {
    urn,
    kind,
    outcome: "adopt",
    id: fresh[0],
    why: "the one object made since the snapshot that matches what it sent and no stack manages",
  };
}

function decideNumber(
  urn: string,
  kind: KindName,
  inputs: Record<string, unknown>,
  ev: Evidence,
  live: Live,
  taken: Set<string>,
): Decision {
  // The current API may leave `active` null: only false means cancelled (kinds/phone-number.ts activeOutput).
  const own =
    typeof inputs.number === "string"
      ? live.numbers.find((n) => n.number === inputs.number && n.active !== false)
      : undefined;
  if (own) {
    const by = ev.managed.get(own.id);
    if (by)
      return {
        urn,
        kind,
        outcome: "unresolved",
        candidates: [own.id],
        why: `number ${own.number} is managed by stack ${by}: not adopted twice`,
      };
    return { urn, kind, outcome: "adopt", id: own.id, why: "the number it adopts" };
  }
  const before = ev.before;
  const fresh = before
    ? live.numbers.filter((n) => n.active !== false && !before.has(n.id) && !ev.managed.has(n.id) && !taken.has(n.id))
    : [];
  return {
    urn,
    kind,
    outcome: "unresolved",
    ...(fresh.length ? { candidates: fresh.map((n) => n.id), paste: fresh.map((n) => `number: "${n.number}"`) } : {}),
    why: "a number may have been bought: `voiceagent audit` lists numbers no stack manages",
  };
}

/**
 * Why the listing of `collection` cannot show that this create made nothing there, or undefined
 * when it can. An unreadable item that a stack manages, that another pending create took or that
 * the snapshot listed before the run cannot be this create's object.
 */
function unread(live: Live, collection: CollectionName, ev: Evidence, taken: ReadonlySet<string>): string | undefined {
  const listing = live.gaps[collection];
  if (!listing) return undefined;
  return gapOf(listing, new Set([...ev.managed.keys(), ...(ev.before ?? []), ...taken]));
}

/** A create that may have reached the service: the list could not be read whole to tell. */
function unknownReach(urn: string, kind: KindName, collection: CollectionName, gap: string): Decision {
  return {
    urn,
    kind,
    outcome: "unresolved",
    why:
      `no readable object matches what it sent, but the service's ${collection} could not be read whole (${gap}): ` +
      "it may have reached the service. Run recover again once the service lists them whole; `voiceagent audit` lists what no stack manages",
  };
}

/** The program argument that adopts `id` for the kind of `d` (`voiceId: "<id>"`), if the kind has one. */
export function adoptLine(d: Pick<Decision, "kind">, id: string): string | undefined {
  const input = ADOPT_INPUTS[d.kind];
  return input ? `${input}: "${id}"` : undefined;
}

function withPaste(paste: string[] | undefined): { paste?: string[] } {
  return paste ? { paste } : {};
}
