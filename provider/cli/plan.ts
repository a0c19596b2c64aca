import { z } from "zod";
import { ActionWriteSchema, AgentCreateSchema, E164Schema, VoiceWriteSchema, WebhookWriteSchema } from "../client/index.js";
import type { Account } from "./account.js";
import { COLLECTIONS, CollectionSchema, PULLED_KIND, SINGULAR, type Collection } from "./kinds.js";
import type { Json } from "./literal.js";
import { actionBaseName, agentBaseName, numberBaseName, uniqueNames, variableNamer, voiceBaseName, webhookBaseName } from "./names.js";

/** A reference to another resource of the program: rendered as `<variable>.id`. */
export const RefSchema = z.object({ kind: z.string(), name: z.string(), variable: z.string(), id: z.string() });
const ScalarArgSchema = z.union([z.object({ value: z.json() }), z.object({ ref: RefSchema })]);
/** One argument: a literal, a reference, or a list of either (an agent's actions). */
export const ArgSchema = z.union([ScalarArgSchema, z.object({ items: z.array(ScalarArgSchema) })]);
/** One argument of a planned resource. */
export type Arg = z.infer<typeof ArgSchema>;
type ScalarArg = z.infer<typeof ScalarArgSchema>;

/** One resource the pulled program declares. */
export const PlannedResourceSchema = z.object({
  collection: CollectionSchema,
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
  skipped: z.array(z.object({ collection: CollectionSchema, id: z.string(), reason: z.string() })),
});
/** The pull plan. */
export type PullPlan = z.infer<typeof PullPlanSchema>;

type Draft = { collection: Collection; id: string; base: string; args: PlannedResource["args"]; notes: string[] };
type Skip = PullPlan["skipped"][number];

const lit = (value: Json): ScalarArg => ({ value });

/** Why a value would fail the provider's check, naming the field. */
function problem(result: z.ZodSafeParseResult<unknown>): string | undefined {
  if (result.success) return undefined;
  return result.error.issues.map((i) => `${i.path.join(".") || "value"} ${i.message}`).join("; ");
}

type Target = { collection: Collection; id: string };
/** A reference still to resolve: the argument `key` points at `targets` (a list for an agent's actions). */
type PendingRef = { key: string; targets: Target[]; list: boolean };
/** How one collection's objects are adopted: why one would be refused, and its name and arguments. */
type Adopter<T> = { refuse(o: T): string | undefined; adopt(o: T): { base: string; args: Draft["args"]; refs: PendingRef[] } };

const refused = (r: z.ZodSafeParseResult<unknown>, field = "") => {
  const bad = problem(r);
  return bad && `the provider would refuse it: ${field}${bad}`;
};
const ref = (key: string, collection: Collection, id: string): PendingRef => ({ key, targets: [{ collection, id }], list: false });
const AgentPromptSchema = AgentCreateSchema.pick({ prompt: true });

/** camelCase `phoneNumber` for the wire's `phone_number`; other keys as they are (the client already dropped `__proto__`). */
function actionConfig(config: Account["actions"][number]["config"]): Json {
  const { phone_number, ...rest } = config;
  return z.record(z.string(), z.json()).parse({ ...(phone_number === undefined ? {} : { phoneNumber: phone_number }), ...rest });
}

const ADOPTERS: { [C in Collection]: Adopter<Account[C][number]> } = {
  voices: {
    refuse: (v) => refused(VoiceWriteSchema.safeParse(v)),
    adopt: (v) => ({
      base: voiceBaseName(v),
      args: { voiceId: lit(v.id), voiceName: lit(v.voice_name), type: lit(v.type), pitch: lit(v.pitch), rate: lit(v.rate) },
      refs: [],
    }),
  },
  actions: {
    refuse: (a) => refused(ActionWriteSchema.safeParse(a)),
    adopt: (a) => {
      const config = actionConfig(a.config);
      const hasConfig = typeof config === "object" && config !== null && Object.keys(config).length > 0;
      return {
        base: actionBaseName(a),
        args: { actionId: lit(a.id), type: lit(a.type), ...(hasConfig ? { config: lit(config) } : {}) },
        refs: [],
      };
    },
  },
  webhooks: {
    refuse: (w) => refused(WebhookWriteSchema.safeParse(w)),
    adopt: (w) => ({
      base: webhookBaseName(w),
      args: { webhookId: lit(w.id), url: lit(w.url), method: lit(w.method), subscriptions: lit(w.subscriptions) },
      refs: [],
    }),
  },
  agents: {
    refuse: (a) => refused(AgentPromptSchema.safeParse(a)),
    adopt: (a) => ({
      base: agentBaseName(a),
      args: { agentId: lit(a.id), prompt: lit(a.prompt), ...(a.initial_message ? { initialMessage: lit(a.initial_message) } : {}) },
      refs: [
        ref("voice", "voices", a.voice.id),
        ...(a.actions.length
          ? [{ key: "actions", targets: a.actions.map((x): Target => ({ collection: "actions", id: x.id })), list: true }]
          : []),
        ...(a.webhook ? [ref("webhook", "webhooks", a.webhook.id)] : []),
      ],
    }),
  },
  numbers: {
    refuse: (n) =>
      !n.active
        ? "cancelled: it cannot be bound again"
        : !n.inbound_agent
          ? "not bound to an agent: there is no binding to declare"
          : refused(E164Schema.safeParse(n.number), "number "),
    adopt: (n) => ({
      base: numberBaseName(n),
      args: { number: lit(n.number) },
      refs: n.inbound_agent ? [ref("inboundAgent", "agents", n.inbound_agent.id)] : [],
    }),
  },
};

/**
 * Plans the program for an account: each object adopted by id, references as resource
 * references, names unique and derived from the objects. Objects the provider would refuse (a
 * value it does not accept) are skipped with the reason rather than written into a program that
 * cannot run.
 */
export function buildPlan(account: Account, only: readonly Collection[] = COLLECTIONS): PullPlan {
  const skipped: Skip[] = [];
  const drafts: Draft[] = [];
  const want = new Set(only);
  // References are resolved once names are known: until then they hold the target's collection and id.
  const pending: { draft: Draft; ref: PendingRef }[] = [];
  const collect = <C extends Collection>(collection: C) => {
    const adopter: Adopter<Account[C][number]> = ADOPTERS[collection];
    for (const o of account[collection]) {
      const reason = adopter.refuse(o);
      if (reason) {
        skipped.push({ collection, id: o.id, reason });
        continue;
      }
      const { base, args, refs } = adopter.adopt(o);
      const draft: Draft = { collection, id: o.id, base, args, notes: [] };
      drafts.push(draft);
      for (const r of refs) pending.push({ draft, ref: r });
    }
  };
  for (const c of COLLECTIONS) if (want.has(c)) collect(c);

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
        `${SINGULAR[t.collection]} ${t.id} is not declared in this program (${want.has(t.collection) ? "skipped, see above" : "not pulled: --only"}): referred to by id`,
      );
      return lit(t.id);
    });
    // biome-ignore lint/style/noNonNullAssertion: a reference that is not a list has exactly one target
    owner.args[p.key] = p.list ? { items: args } : args[0]!;
  }
  return { resources: sortForProgram(resources), skipped };
}

/** Names every draft (unique per kind) and gives it a variable (unique in the program). */
function name(drafts: Draft[]): PlannedResource[] {
  const names = new Map<string, string>();
  for (const c of COLLECTIONS) {
    for (const [id, n] of uniqueNames(drafts.filter((d) => d.collection === c))) names.set(`${c}:${id}`, n);
  }
  const resources = drafts.map((d) => ({
    collection: d.collection,
    kind: PULLED_KIND[d.collection],
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
function sortForProgram<T extends { collection: Collection; name: string }>(rs: T[]): T[] {
  return [...rs].sort(
    (a, b) => COLLECTIONS.indexOf(a.collection) - COLLECTIONS.indexOf(b.collection) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}
