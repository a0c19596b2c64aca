import { z } from "zod";
import { KINDS as REGISTRY, type KindName } from "../resources/kinds/index.js";
import type { KindInfo } from "../resources/kit/kind.js";

/** The account's collections, in dependency order: what an agent refers to comes before it. */
export const COLLECTIONS = ["voices", "actions", "webhooks", "agents", "numbers"] as const satisfies readonly NonNullable<KindInfo["account"]>[];
/** One collection of the account: `--only` takes a comma-separated list of these. */
export const CollectionSchema = z.enum(COLLECTIONS);
/** One collection of the account. */
export type Collection = z.infer<typeof CollectionSchema>;

/**
 * Every resource kind of the provider and the account collection its objects live in (undefined:
 * not an account object, e.g. a call), from the kinds' registry: the state parser, audit and
 * drift read nothing else.
 */
export const RESOURCE_KINDS: Readonly<Record<string, Collection | undefined>> = Object.fromEntries(REGISTRY.map((k) => [k.kind, k.info.account]));

/** A resource kind of the provider ("Agent", "PhoneNumber", ...). */
export type ResourceKind = KindName;

const DYNAMIC_PREFIX = "pulumi-nodejs:dynamic/voiceagent:";
const NATIVE_PREFIX = "voiceagent:index:";

/** The type token a kind has in the state of a program on the dynamic classes: `pulumi-nodejs:dynamic/voiceagent:Agent`. */
export function typeToken(kind: ResourceKind): string {
  return `${DYNAMIC_PREFIX}${kind}`;
}

/**
 * The kind of a state type token (the dynamic classes' or the native provider's,
 * `voiceagent:index:Agent`), or undefined for resources that are not ours.
 */
export function kindOfType(type: string): ResourceKind | undefined {
  const prefix = [DYNAMIC_PREFIX, NATIVE_PREFIX].find((p) => type.startsWith(p));
  if (!prefix) return undefined;
  const kind = type.slice(prefix.length);
  return isResourceKind(kind) ? kind : undefined;
}

function isResourceKind(kind: string): kind is ResourceKind {
  return REGISTRY.some((k) => k.kind === kind);
}

/** The input that adopts an existing object of `kind` (agentId, ...), if the kind has one. */
export function adoptInputOf(kind: ResourceKind): string | undefined {
  return REGISTRY.find((k) => k.kind === kind)?.info.adopt;
}

/** The kind `voiceagent pull` declares for each collection (numbers: the inbound binding). */
export const PULLED_KIND = {
  voices: "Voice",
  actions: "Action",
  webhooks: "Webhook",
  agents: "Agent",
  numbers: "PhoneNumber",
} as const satisfies Record<Collection, ResourceKind>;

/** One object of a collection, as humans read it in reports: "agent", "number". */
export const SINGULAR: Record<Collection, string> = {
  voices: "voice",
  actions: "action",
  webhooks: "webhook",
  agents: "agent",
  numbers: "number",
};

/**
 * Parses `--only agents,numbers`. Singular names are accepted too; an unknown name is an error
 * that lists the known ones.
 */
export function parseCollections(value: string): Collection[] {
  const wanted = value
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (wanted.length === 0) throw new Error(`--only is empty: name one or more of ${COLLECTIONS.join(", ")}`);
  const out = new Set<Collection>();
  for (const w of wanted) {
    const parsed = CollectionSchema.safeParse(w.endsWith("s") ? w : `${w}s`);
    if (!parsed.success) throw new Error(`--only: unknown kind "${w}"; use ${COLLECTIONS.join(", ")}`);
    out.add(parsed.data);
  }
  return COLLECTIONS.filter((c) => out.has(c));
}
