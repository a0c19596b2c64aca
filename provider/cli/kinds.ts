import { z } from "zod";
import { CliError } from "./errors.js";
import { KIND_NAMES, KINDS as REGISTRY, type KindName } from "../resources/kinds/index.js";
import { type AccountCollection, COLLECTION_WORDS } from "../resources/kinds/collection-words.js";
import type { CollectionName } from "../client/index.js";
import type { RecoverMatch } from "../resources/kit/kind.js";
import type { PullDef } from "../resources/kit/pull.js";
import type { Json } from "../schemas/json.js";

/** Every collection an account may hold (resources/kinds/collection-words.ts), in `pull`'s order. */
const WORDED = Object.keys(COLLECTION_WORDS).filter((c): c is AccountCollection => c in COLLECTION_WORDS);

/**
 * The account's collections that a kind declares (the one with `pull`), in dependency order: what
 * an agent refers to comes before it. A collection of the wire table joins pull, audit, drift and
 * recover when its kind is registered, with no code here.
 */
export const ACCOUNT_COLLECTIONS: readonly AccountCollection[] = WORDED.filter((c) =>
  REGISTRY.some((k) => k.info.collection === c && k.info.pull),
);
/** One collection of the account: `--only` takes a comma-separated list of these. */
export const AccountCollectionSchema = z.enum(ACCOUNT_COLLECTIONS);
export type { AccountCollection };

/**
 * Every resource kind of the provider and the account collection its objects live in (undefined:
 * not an account object, e.g. a call), from the kinds' registry: the state parser, audit and
 * drift read nothing else.
 */
export const RESOURCE_KINDS: Readonly<Record<string, AccountCollection | undefined>> = Object.fromEntries(
  REGISTRY.map((k) => [k.kind, ACCOUNT_COLLECTIONS.find((c) => c === k.info.collection)]),
);

export { KIND_NAMES, type KindName };

/**
 * The properties a program gives each kind (its fields, but the inert ones kept only for old
 * programs): what `drift` compares between the state and the live object. A kind's outputs that
 * are not inputs (a call's status, a number's `active`) are the service's to change.
 */
export const INPUT_PROPERTIES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  REGISTRY.map((k) => [
    k.kind,
    Object.entries(k.info.fields)
      .filter(([, f]) => f.change !== "inert")
      .map(([name]) => name),
  ]),
);

/** The input that adopts an existing object of each kind that has one (Agent: agentId, ...), from the kinds. */
export const ADOPT_INPUTS: Readonly<Partial<Record<KindName, string>>> = Object.fromEntries(
  REGISTRY.flatMap((k) => (k.info.adopt ? [[k.kind, k.info.adopt]] : [])),
);

const ResourceKindSchema = z.custom<KindName>((v) => KIND_NAMES.some((k) => k === v));

/** A kind that `voiceagent pull` declares objects of a collection as, and how. */
interface Puller {
  kind: KindName;
  pull: PullDef<unknown>;
}

/**
 * The kinds `voiceagent pull` declares each collection's objects as (the ones with `pull`), those
 * that choose their objects (`takes`: numbers linked through a connection are LinkedNumbers) first.
 */
const PULLERS: Readonly<Partial<Record<AccountCollection, readonly Puller[]>>> = Object.fromEntries(
  ACCOUNT_COLLECTIONS.map((c) => [
    c,
    REGISTRY.flatMap((k): Puller[] => {
      const pull = k.info.pull;
      return k.info.collection === c && pull ? [{ kind: ResourceKindSchema.parse(k.kind), pull }] : [];
    }).sort((a, b) => Number(b.pull.takes !== undefined) - Number(a.pull.takes !== undefined)),
  ]),
);

/**
 * The kind and `pull` that declare one live object of a collection: the first whose `takes`
 * claims it, else the collection's kind without `takes` (every collection has one, checked here).
 */
export function pullerFor(collection: AccountCollection, live: unknown): Puller {
  const candidates = PULLERS[collection] ?? [];
  const found = candidates.find((p) => p.pull.takes?.(live) ?? true);
  if (!found) throw new Error(`no kind says how to pull this object of ${collection}`);
  return found;
}

/** A pulled argument the provider's check refuses, left out of the program, and why. */
export interface LeftOut {
  argument: string;
  reason: string;
}

/**
 * A pulled object's literal arguments as the provider's own check takes them: each parsed by its
 * kind's input schema (a value a newer service sends that this release does not know fails there).
 * One that fails is left out when leaving it unset keeps the service's value (`unset:
 * "service-decides"`), and said why; any other makes the whole object refused, with why.
 */
export function checkPulled(
  kind: KindName,
  args: Record<string, Json>,
): { args: Record<string, Json>; left: LeftOut[] } | { refused: string } {
  const info = REGISTRY.find((k) => k.kind === kind)?.info;
  const kept: Record<string, Json> = {};
  const left: LeftOut[] = [];
  for (const [key, value] of Object.entries(args)) {
    const schema = info?.input.shape[key];
    const parsed = schema ? z.safeParse(schema, value) : undefined;
    if (!parsed || parsed.success) {
      kept[key] = value;
      continue;
    }
    const why = parsed.error.issues.map((i) => `${[key, ...i.path].join(".")} ${i.message}`).join("; ");
    if (info?.fields[key]?.unset !== "service-decides") return { refused: `the provider would refuse it: ${why}` };
    left.push({
      argument: key,
      reason: `${JSON.stringify(value)} is not a value this release takes (${why}): left out, so the service keeps its value`,
    });
  }
  return { args: kept, left };
}

/** The kinds `voiceagent pull` may declare a collection's objects as (numbers: PhoneNumber and LinkedNumber). */
export function pulledKinds(collection: AccountCollection): readonly KindName[] {
  return (PULLERS[collection] ?? []).map((p) => p.kind);
}

for (const c of ACCOUNT_COLLECTIONS)
  if (!PULLERS[c]?.some((p) => p.pull.takes === undefined)) throw new Error(`no kind pulls every object of ${c}`);

/** One object of a collection, as humans read it in reports: "agent", "number". */
export const SINGULAR: Readonly<Record<AccountCollection, string>> = z
  .record(z.enum(WORDED), z.string())
  .parse(Object.fromEntries(WORDED.map((c) => [c, COLLECTION_WORDS[c].singular])));
/** A collection's heading in a pulled program. */
export const HEADING: Readonly<Record<AccountCollection, string>> = z
  .record(z.enum(WORDED), z.string())
  .parse(Object.fromEntries(WORDED.map((c) => [c, COLLECTION_WORDS[c].heading])));
/** A collection's section of a stack file's fleet. */
export const SECTION: Readonly<Record<AccountCollection, string>> = z
  .record(z.enum(WORDED), z.string())
  .parse(Object.fromEntries(WORDED.map((c) => [c, COLLECTION_WORDS[c].section])));

/** The collections recover reads (the account's, and calls). */
type RecoverCollection = AccountCollection | "calls";
const isRecoverable = (c: CollectionName): c is RecoverCollection =>
  c === "calls" || ACCOUNT_COLLECTIONS.some((a) => a === c);

/**
 * The collection of each kind's objects (recover matches a pending create against it). A kind
 * whose create sends a secret (VectorDatabase, AccountConnection) is never matched by its body
 * (RecoverMatch "adopt-only"): its collection's unmanaged objects are only offered.
 */
export const COLLECTION_OF: Readonly<Record<string, RecoverCollection>> = Object.fromEntries(
  REGISTRY.flatMap((k) => (isRecoverable(k.info.collection) ? [[k.kind, k.info.collection]] : [])),
);

/** How recover settles a pending create of each kind (kind.ts `RecoverMatch`), from the kinds. */
export const RECOVER_MATCH: Readonly<Record<string, RecoverMatch>> = Object.fromEntries(
  REGISTRY.map((k) => [k.kind, k.info.recover ?? "sent-body"]),
);

/**
 * Parses `--only agents,numbers`. Singular names are accepted too; an unknown name is an error
 * that lists the known ones.
 */
export function parseCollections(value: string): AccountCollection[] {
  const wanted = value
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (wanted.length === 0) throw new CliError(`--only is empty: name one or more of ${ACCOUNT_COLLECTIONS.join(", ")}`);
  const out = new Set<AccountCollection>();
  for (const w of wanted) {
    const parsed = AccountCollectionSchema.safeParse(
      ACCOUNT_COLLECTIONS.find((c) => c === w || c === `${w}s` || SINGULAR[c] === w),
    );
    if (!parsed.success) throw new CliError(`--only: unknown collection "${w}"; use ${ACCOUNT_COLLECTIONS.join(", ")}`);
    out.add(parsed.data);
  }
  return ACCOUNT_COLLECTIONS.filter((c) => out.has(c));
}
