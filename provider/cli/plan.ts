import { z } from "zod";
import type { Account } from "./account.js";
import {
  ACCOUNT_COLLECTIONS,
  AccountCollectionSchema,
  checkPulled,
  pullerFor,
  SINGULAR,
  type AccountCollection,
} from "./kinds.js";
import type { Json } from "../schemas/json.js";
import type { PulledSecret } from "../resources/kit/pull.js";
import { uniqueNames, variableNamer } from "./names.js";

/** A reference to another resource of the program: rendered as `<variable>.id`. */
export const RefSchema = z.object({ kind: z.string(), name: z.string(), variable: z.string(), id: z.string() });
const ScalarArgSchema = z.union([z.object({ value: z.json() }), z.object({ ref: RefSchema })]);
/**
 * A secret argument (an OpenAI key, a Twilio auth token, a Pinecone key): never a value here, but
 * the secret config key the program reads it from and what the user must supply there.
 */
export const SecretArgSchema = z.object({ secret: z.object({ key: z.string(), what: z.string() }) });
/** One argument: a literal, a reference, a list of either (an agent's actions), or a secret to supply. */
export const ArgSchema = z.union([ScalarArgSchema, z.object({ items: z.array(ScalarArgSchema) }), SecretArgSchema]);
/** One argument of a planned resource. */
export type Arg = z.infer<typeof ArgSchema>;
type ScalarArg = z.infer<typeof ScalarArgSchema>;

/** One resource the pulled program declares. */
export const PlannedResourceSchema = z.object({
  collection: AccountCollectionSchema,
  kind: z.string(),
  /** The Pulumi resource name (part of the URN). */
  name: z.string(),
  /** The variable it is assigned to in index.ts. */
  variable: z.string(),
  /** The object's id on the service (a number's UUID for numbers). */
  id: z.string(),
  /** Arguments by name, in the order they are written. */
  args: z.record(z.string(), ArgSchema),
  /** Things a reviewer should know, written as comments above it. */
  notes: z.array(z.string()),
});
/** One resource the pulled program declares. */
export type PlannedResource = z.infer<typeof PlannedResourceSchema>;

/** What `voiceagent pull --json` prints and what the files are written from. */
export const PullPlanSchema = z.object({
  resources: z.array(PlannedResourceSchema),
  /** Objects of the account not declared, and why. */
  skipped: z.array(z.object({ collection: AccountCollectionSchema, id: z.string(), reason: z.string() })),
  /** Arguments of declared objects left out (the provider would refuse their value; the service keeps it), and why. */
  left: z
    .array(z.object({ collection: AccountCollectionSchema, id: z.string(), argument: z.string(), reason: z.string() }))
    .default([]),
});
/** The pull plan. */
export type PullPlan = z.infer<typeof PullPlanSchema>;

type Draft = {
  collection: AccountCollection;
  kind: string;
  id: string;
  base: string;
  args: PlannedResource["args"];
  secrets: PulledSecret[];
  notes: string[];
};
type Skip = PullPlan["skipped"][number];

const lit = (value: Json): ScalarArg => ({ value });

type Target = { collection: AccountCollection; id: string };
/** A reference still to resolve: the argument `key` points at `targets` (a list for an agent's actions). */
type PendingRef = { key: string; targets: Target[]; list: boolean };
/**
 * Plans the program for an account: each object adopted by id, references as resource
 * references, names unique and derived from the objects. Objects the provider would refuse (a
 * value it does not accept) are skipped with the reason rather than written into a program that
 * cannot run.
 */
export function buildPlan(account: Account, only: readonly AccountCollection[] = ACCOUNT_COLLECTIONS): PullPlan {
  const skipped: Skip[] = [];
  const left: PullPlan["left"] = [];
  const drafts: Draft[] = [];
  const want = new Set(only);
  // References are resolved once names are known: until then they hold the target's collection and id.
  const pending: { draft: Draft; ref: PendingRef }[] = [];
  // Each collection's objects are adopted as its pulled kind says (the kinds' `pull`).
  const collect = (collection: AccountCollection) => {
    for (const o of account[collection]) {
      const { kind, pull } = pullerFor(collection, o);
      const reason = pull.refuse(o);
      if (reason) {
        skipped.push({ collection, id: o.id, reason });
        continue;
      }
      const { args: adopted, refs, secrets = [] } = pull.adopt(o);
      // Only what the provider's own check takes is written: a program it refuses helps no one.
      const checked = checkPulled(kind, adopted);
      if ("refused" in checked) {
        skipped.push({ collection, id: o.id, reason: checked.refused });
        continue;
      }
      const { args } = checked;
      for (const l of checked.left) left.push({ collection, id: o.id, ...l });
      const draft: Draft = {
        collection,
        kind,
        id: o.id,
        base: pull.name(o),
        args: Object.fromEntries(Object.entries(args).map(([k, v]) => [k, lit(v)])),
        secrets,
        notes: [],
      };
      for (const l of checked.left) draft.notes.push(`${l.argument} not declared: ${l.reason}`);
      drafts.push(draft);
      for (const r of refs) {
        // Only the account's collections are pulled: a reference to any other (none today) is left out.
        const targets = r.ids.flatMap((id): Target[] => {
          const c = ACCOUNT_COLLECTIONS.find((x) => x === r.collection);
          return c ? [{ collection: c, id }] : [];
        });
        pending.push({ draft, ref: { key: r.key, targets, list: r.list } });
      }
    }
  };
  for (const c of ACCOUNT_COLLECTIONS) if (want.has(c)) collect(c);

  const resources = name(drafts);
  const byTarget = new Map(resources.map((r) => [`${r.collection}:${r.id}`, r]));
  // biome-ignore lint/style/noNonNullAssertion: name() returns one resource per draft, in the drafts' order
  const byDraft = new Map(drafts.map((d, i) => [d, resources[i]!]));
  for (const { draft, ref: p } of pending) {
    // biome-ignore lint/style/noNonNullAssertion: every pending reference was collected from a draft
    const owner = byDraft.get(draft)!;
    const args = p.targets.map((t): ScalarArg => {
      const target = byTarget.get(`${t.collection}:${t.id}`);
      if (target) return { ref: { kind: target.kind, name: target.name, variable: target.variable, id: target.id } };
      owner.notes.push(
        `${SINGULAR[t.collection]} ${t.id} is not declared in this program (${
          want.has(t.collection) ? "skipped, see " + "above" : "not pulled: --only"
        }): referred to by id`,
      );
      return lit(t.id);
    });
    // biome-ignore lint/style/noNonNullAssertion: a reference that is not a list has exactly one target
    owner.args[p.key] = p.list ? { items: args } : args[0]!;
  }
  // Each secret is read from a config key named after its resource, unique in the program.
  const taken = new Set(resources.map((r) => r.variable));
  for (const d of drafts) {
    // biome-ignore lint/style/noNonNullAssertion: name() returns one resource per draft
    const owner = byDraft.get(d)!;
    for (const s of d.secrets) {
      const base = `${owner.variable}${s.key.charAt(0).toUpperCase()}${s.key.slice(1)}`;
      let key = base;
      for (let i = 2; taken.has(key); i++) key = `${base}${i}`;
      taken.add(key);
      owner.args[s.key] = { secret: { key, what: s.what } };
    }
  }
  return { resources: sortForProgram(resources), skipped, left };
}

/** The secret config values a pulled program reads, each with what the user must supply. */
export function secretsOf(plan: PullPlan): { key: string; what: string }[] {
  return plan.resources.flatMap((r) => Object.values(r.args).flatMap((a) => ("secret" in a ? [a.secret] : [])));
}

/** Names every draft (unique per kind) and gives it a variable (unique in the program). */
function name(drafts: Draft[]): PlannedResource[] {
  const names = new Map<string, string>();
  for (const c of ACCOUNT_COLLECTIONS) {
    for (const [id, n] of uniqueNames(drafts.filter((d) => d.collection === c))) names.set(`${c}:${id}`, n);
  }
  const resources = drafts.map((d) => ({
    collection: d.collection,
    kind: d.kind,
    name: names.get(`${d.collection}:${d.id}`) ?? d.base,
    variable: "",
    id: d.id,
    args: d.args,
    notes: d.notes,
  }));
  const variable = variableNamer();
  for (const r of sortForProgram(resources)) r.variable = variable(r.name, r.kind);
  return resources;
}

/** Dependencies first (the collection order), then by name: the order index.ts is written in. */
function sortForProgram<T extends { collection: AccountCollection; name: string }>(rs: T[]): T[] {
  return [...rs].sort(
    (a, b) =>
      ACCOUNT_COLLECTIONS.indexOf(a.collection) - ACCOUNT_COLLECTIONS.indexOf(b.collection) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}
