import { z } from "zod";
import {
  ActionWriteSchema,
  AgentCreateSchema,
  E164Schema,
  VoiceWriteSchema,
  WebhookWriteSchema,
} from "../client/index.js";
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
  const skip = (collection: Collection, id: string, reason: string) => skipped.push({ collection, id, reason });

  if (want.has("voices")) {
    for (const v of account.voices) {
      const bad = problem(VoiceWriteSchema.safeParse(v));
      if (bad) skip("voices", v.id, `the provider would refuse it: ${bad}`);
      else {
        const args = { voiceId: lit(v.id), voiceName: lit(v.voice_name), type: lit(v.type), pitch: lit(v.pitch), rate: lit(v.rate) };
        drafts.push({ collection: "voices", id: v.id, base: voiceBaseName(v), args, notes: [] });
      }
    }
  }
  if (want.has("actions")) {
    for (const a of account.actions) {
      const bad = problem(ActionWriteSchema.safeParse(a));
      if (bad) skip("actions", a.id, `the provider would refuse it: ${bad}`);
      else {
        const { phone_number, ...rest } = a.config;
        const config = z.record(z.string(), z.json()).parse({ ...(phone_number === undefined ? {} : { phoneNumber: phone_number }), ...rest });
        const args: Draft["args"] = { actionId: lit(a.id), type: lit(a.type) };
        if (Object.keys(config).length > 0) args.config = lit(config);
        drafts.push({ collection: "actions", id: a.id, base: actionBaseName(a), args, notes: [] });
      }
    }
  }
  if (want.has("webhooks")) {
    for (const w of account.webhooks) {
      const bad = problem(WebhookWriteSchema.safeParse(w));
      if (bad) skip("webhooks", w.id, `the provider would refuse it: ${bad}`);
      else {
        const args = { webhookId: lit(w.id), url: lit(w.url), method: lit(w.method), subscriptions: lit(w.subscriptions) };
        drafts.push({ collection: "webhooks", id: w.id, base: webhookBaseName(w), args, notes: [] });
      }
    }
  }
  // References are resolved once names are known: placeholders hold the target's collection and id.
  const pending: { draft: Draft; key: string; targets: { collection: Collection; id: string }[]; list: boolean }[] = [];
  if (want.has("agents")) {
    for (const a of account.agents) {
      const bad = problem(AgentCreateSchema.pick({ prompt: true }).safeParse(a));
      if (bad) {
        skip("agents", a.id, `the provider would refuse it: ${bad}`);
        continue;
      }
      const draft: Draft = { collection: "agents", id: a.id, base: agentBaseName(a), args: { agentId: lit(a.id), prompt: lit(a.prompt) }, notes: [] };
      if (a.initial_message) draft.args.initialMessage = lit(a.initial_message);
      pending.push({ draft, key: "voice", targets: [{ collection: "voices", id: a.voice.id }], list: false });
      if (a.actions.length) pending.push({ draft, key: "actions", targets: a.actions.map((x) => ({ collection: "actions", id: x.id })), list: true });
      if (a.webhook) pending.push({ draft, key: "webhook", targets: [{ collection: "webhooks", id: a.webhook.id }], list: false });
      drafts.push(draft);
    }
  }
  if (want.has("numbers")) {
    for (const n of account.numbers) {
      const bad = problem(E164Schema.safeParse(n.number));
      if (!n.active) skip("numbers", n.id, "cancelled: it cannot be bound again");
      else if (!n.inbound_agent) skip("numbers", n.id, "not bound to an agent: there is no binding to declare");
      else if (bad) skip("numbers", n.id, `the provider would refuse it: number ${bad}`);
      else {
        const draft: Draft = { collection: "numbers", id: n.id, base: numberBaseName(n), args: { number: lit(n.number) }, notes: [] };
        pending.push({ draft, key: "inboundAgent", targets: [{ collection: "agents", id: n.inbound_agent.id }], list: false });
        drafts.push(draft);
      }
    }
  }

  const resources = name(drafts);
  const byTarget = new Map(resources.map((r) => [`${r.collection}:${r.id}`, r]));
  const byDraft = new Map(drafts.map((d, i) => [d, resources[i]!]));
  for (const p of pending) {
    const owner = byDraft.get(p.draft)!;
    const args = p.targets.map((t): ScalarArg => {
      const target = byTarget.get(`${t.collection}:${t.id}`);
      if (target) return { ref: { kind: target.kind, name: target.name, variable: target.variable, id: target.id } };
      owner.notes.push(`${SINGULAR[t.collection]} ${t.id} is not declared in this program (${want.has(t.collection) ? "skipped, see above" : "not pulled: --only"}): referred to by id`);
      return lit(t.id);
    });
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
  return [...rs].sort((a, b) => COLLECTIONS.indexOf(a.collection) - COLLECTIONS.indexOf(b.collection) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
