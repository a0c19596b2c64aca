import type { z } from "zod";
import type { CollectionName } from "../../client/index.js";
import type { Json } from "../../schemas/json.js";

// How `voiceagent pull` declares a live object of a kind's collection: declared by the kind
// (`pull`), read by the CLI (cli/plan.ts), which resolves references and names.

/** An argument of a pulled resource that refers to other objects of the account (a list for an agent's actions). */
export interface PulledRef {
  key: string;
  collection: CollectionName;
  ids: string[];
  list: boolean;
}

/**
 * One live object as a pulled program declares it: its literal arguments, its references, and
 * its secret arguments (the OpenAI key, the Twilio auth token, the Pinecone key): never pulled as
 * values (the service may not echo them, and a pulled program holds no plaintext secret), each
 * read from a secret config value the user supplies, with what to supply.
 */
export interface Pulled {
  args: Record<string, Json>;
  refs: PulledRef[];
  secrets?: PulledSecret[];
}

/** A secret argument of a pulled resource: the user supplies it as secret config. */
export interface PulledSecret {
  key: string;
  /** What the user must supply, e.g. "the Twilio auth token of account AC123". */
  what: string;
}

/**
 * How `voiceagent pull` adopts the objects of the kind's collection (one kind per collection
 * has it). Written with method syntax: the registry holds it for objects of any type, and the
 * CLI hands it only objects of the kind's collection.
 */
export interface PullDef<R> {
  /**
   * Whether this kind declares the object, when several kinds pull the same collection (numbers:
   * a linked number is a LinkedNumber, the others PhoneNumber bindings). Absent: every object
   * another kind's `takes` does not claim.
   */
  takes?(live: R): boolean;
  /** The readable base of its resource name (before collisions are told apart). */
  name(live: R): string;
  /** Why the provider would refuse the object, so it is skipped with that reason; undefined when it would not. */
  refuse(live: R): string | undefined;
  /** Its arguments, every one adopting it as it is. */
  adopt(live: R): Pulled;
}

/**
 * How a kind declares its `pull`: `adopt` may be left out, and the arguments are then each field
 * as an import reads it, references where the field `refersTo` a collection (kit/pulled.ts, filled
 * in when the kind is registered), so a field added to the kind is pulled without another word.
 */
export type PullDecl<R> = Omit<PullDef<R>, "adopt"> & Partial<Pick<PullDef<R>, "adopt">>;

/** The arguments whose value the service holds: null and undefined left out (the current API sends nulls). */
export function present(args: Record<string, string | number | boolean | null | undefined>): Record<string, Json> {
  return Object.fromEntries(Object.entries(args).flatMap(([k, v]) => (v === null || v === undefined ? [] : [[k, v]])));
}

/** Why a value would fail the provider's check, naming the field (prefixed with `field`), or undefined. */
export function refusal(result: z.ZodSafeParseResult<unknown>, field = ""): string | undefined {
  if (result.success) return undefined;
  const bad = result.error.issues.map((i) => `${i.path.join(".") || "value"} ${i.message}`).join("; ");
  return `the provider would refuse it: ${field}${bad}`;
}

/** The longest base name before a collision suffix. */
const MAX_NAME = 40;

/**
 * A readable ASCII slug: accents folded, everything else but letters and digits turned into
 * single dashes, at most `maxWords` words and {@link MAX_NAME} characters. May be empty.
 */
export function slug(text: string, maxWords = 6): string {
  const words = text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, maxWords);
  let out = "";
  for (const w of words) {
    const next = out ? `${out}-${w}` : w;
    if (next.length > MAX_NAME) break;
    out = next;
  }
  return out || (words[0] ?? "").slice(0, MAX_NAME);
}
