// How each section of the fleet (but `lines`, which makes one of three kinds) becomes resources of
// its kind, derived from the kind's own declaration: the input an entry's `id` adopts with is the
// kind's `adopt`, the fields always secret are the kind's `secret` fields, and every other field
// passes under its own name. The one fact the fleet adds is which of a kind's fields name another
// entry of the fleet by key. Loaded with the check (./load-check.ts): it brings the kinds.
// Types only from @pulumi/pulumi: the CLI loads this module through the fleet check (pull --format
// stack) where no @pulumi/pulumi is installed (`npx --package pulumi-voiceagent voiceagent`).
import type * as pulumi from "@pulumi/pulumi";
import { COLLECTION_WORDS } from "../resources/kinds/collection-words.js";
import { KINDS } from "../resources/kinds/index.js";
import type { KindInfo } from "../resources/kit/kind.js";

/** The sections whose entries are one resource each of one kind, in the order they are declared. */
export type EntrySection =
  | "voices"
  | "actions"
  | "webhooks"
  | "prompts"
  | "vectorDatabases"
  | "accountConnections"
  | "agents";

/** The kinds the entry sections make. */
export type EntryKind = "Voice" | "Action" | "Webhook" | "Prompt" | "VectorDatabase" | "AccountConnection" | "Agent";

/** Each entry section's kind. */
const SECTION_KINDS: Record<EntrySection, EntryKind> = {
  voices: "Voice",
  actions: "Action",
  webhooks: "Webhook",
  prompts: "Prompt",
  vectorDatabases: "VectorDatabase",
  accountConnections: "AccountConnection",
  agents: "Agent",
};

/** The entry sections, in the order resources are declared (what others refer to first). */
export const ENTRY_SECTIONS = Object.keys(SECTION_KINDS).filter((s): s is EntrySection => s in SECTION_KINDS);

/** What a section's entries become, read off their kind's declaration. */
export interface SectionKind {
  /** The kind's name ("Voice"). */
  kind: EntryKind;
  /** The input an entry's `id` is passed as (`voiceId`). */
  adopt: string;
  /** The kind's credentials: secret whatever the fleet's value was. */
  secret: ReadonlySet<string>;
  /** Fields naming an entry of another section by key. */
  refs: Readonly<Record<string, EntrySection>>;
}

/** The declaration of an entry section's kind, as the registry holds it. */
export function kindInfoOf(section: EntrySection): KindInfo & { adopt: string } {
  const kind = SECTION_KINDS[section];
  const info = KINDS.find((k) => k.kind === kind)?.info;
  const adopt = info?.adopt;
  if (info === undefined || adopt === undefined)
    throw new Error(`the fleet's ${section} are ${kind}s, which the registry has no adoptable kind for`);
  return { ...info, adopt };
}

/** The section whose entries a field that `refersTo` a collection names. */
const isSection = (s: string): s is EntrySection => s in SECTION_KINDS;

/** Each entry section's kind, as its declaration says. */
export function sectionKind(section: EntrySection): SectionKind {
  const kind = SECTION_KINDS[section];
  const info = kindInfoOf(section);
  const fields = Object.entries(info.fields);
  const secret = new Set(fields.filter(([, f]) => f.secret).map(([name]) => name));
  // A field naming an object of another collection names its entry in that collection's section.
  const refs = Object.fromEntries(
    fields.flatMap(([name, f]) => {
      const section = Object.entries(COLLECTION_WORDS).find(([c]) => c === f.refersTo)?.[1].section;
      return section !== undefined && isSection(section) ? [[name, section]] : [];
    }),
  );
  return { kind, adopt: info.adopt, secret, refs };
}

/** How people call one entry of a section ("vector database"), from the collection's words. */
export function nounOf(section: EntrySection): string {
  return Object.values(COLLECTION_WORDS).find((w) => w.section === section)?.singular ?? section;
}

/** How the Fleet refers to another entry: its resource's id when the key is the fleet's, else the UUID as given. */
export type Resolve = (section: EntrySection, value: string) => pulumi.Input<string>;

/**
 * The arguments of an entry's resource: its `id` as the kind's adopt input, references resolved,
 * credentials secret always, every other value as written (secret when the fleet's value is, `on`),
 * each made secret by `secret` (the program's `pulumi.secret`).
 */
export function entryArgs(
  section: EntrySection,
  entry: Record<string, unknown>,
  on: boolean,
  resolve: Resolve,
  secret: (value: unknown) => unknown,
): Record<string, unknown> {
  const k = sectionKind(section);
  const wrap = (v: unknown) => (on ? secret(v) : v);
  const args: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(entry)) {
    if (value === undefined || field === "was") continue;
    const refers = k.refs[field];
    if (field === "id") args[k.adopt] = wrap(value);
    else if (refers !== undefined)
      args[field] = Array.isArray(value)
        ? value.map((v) => resolve(refers, String(v)))
        : resolve(refers, String(value));
    else if (k.secret.has(field)) args[field] = secret(value);
    else args[field] = wrap(value);
  }
  return args;
}
