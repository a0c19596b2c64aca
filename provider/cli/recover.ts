import { z } from "zod";
import { matchesSent } from "../client/index.js";
import { createBodyFor } from "../resources/providers.js";
import type { Account } from "./account.js";
import { CliError } from "./errors.js";
import { adoptInputOf, kindOfType, type ResourceKind } from "./kinds.js";

/**
 * A create that `pulumi up` had started when it was killed: Pulumi records it as a pending
 * operation with the resource's inputs, and a later refresh refuses to guess what became of it.
 */
export const PendingOperationSchema = z.looseObject({
  type: z.string(),
  resource: z.looseObject({ urn: z.string(), type: z.string(), inputs: z.record(z.string(), z.unknown()).optional() }),
});
/** One pending operation of a stack export. */
export type PendingOperation = z.infer<typeof PendingOperationSchema>;

const ExportSchema = z.looseObject({
  version: z.literal(3),
  deployment: z.looseObject({
    resources: z.array(z.looseObject({ id: z.string().optional() })).nullish(),
    pending_operations: z.array(PendingOperationSchema).nullish(),
  }),
});
/** The parts of a stack export recover reads and edits. */
export type StackExport = z.infer<typeof ExportSchema>;

/** Parses a stack export (one-line error naming `source` when it is not one). */
export function parseExport(text: string, source: string): StackExport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(`${source} is not JSON, so not a Pulumi stack export`);
  }
  const parsed = ExportSchema.safeParse(json);
  if (!parsed.success) throw new CliError(`${source} is not a version 3 Pulumi stack export`);
  return parsed.data;
}

/** What recover does with one pending create. */
export interface Decision {
  urn: string;
  kind: ResourceKind | undefined;
  /** adopted: the object it made was found and goes into the state; cleared: nothing to find. */
  outcome: "adopted" | "cleared" | "unresolved";
  id?: string;
  candidates?: string[];
  why: string;
}

/** The live objects recover may match, with calls (which `Account` does not hold). */
export interface Live extends Account {
  calls: { id: string; status: string }[];
}

const COLLECTION: Partial<Record<ResourceKind, keyof Live>> = {
  Agent: "agents",
  Voice: "voices",
  Action: "actions",
  Webhook: "webhooks",
  Call: "calls",
};

/**
 * Decides, for each pending create, what it made. The inputs Pulumi recorded give the exact body
 * the create sent (derived by the provider's own kind definitions); an object of the account that
 * matches it on every field, that no resource of the stack manages and that no other pending create
 * took, is what it made. Exactly one such object: adopted. None: the create never reached the
 * service (cleared; the next `up` makes it). Two or more, or a kind a list cannot tell (a bought
 * number): unresolved, cleared from the state and reported, never guessed.
 */
export function decide(pending: PendingOperation[], managed: ReadonlySet<string>, live: Live): Decision[] {
  const taken = new Set<string>();
  return pending.map((op): Decision => {
    const { urn, type, inputs = {} } = op.resource;
    const kind = kindOfType(type);
    if (!kind) return { urn, kind, outcome: "cleared", why: "not a resource of this package" };
    if (kind === "PhoneNumber") return { urn, kind, outcome: "cleared", why: "a binding: the next up binds the number again (binding twice is harmless)" };
    if (kind === "PurchasedNumber") {
      const own = live.numbers.find((n) => n.number === inputs.number && n.active);
      if (own && !managed.has(own.id)) return settle({ urn, kind, outcome: "adopted", id: own.id, why: "the number it adopts" }, taken);
      return { urn, kind, outcome: "unresolved", why: "a number may have been bought: `voiceagent audit` lists numbers no stack manages" };
    }
    const adoptInput = adoptInputOf(kind);
    const adoptId = adoptInput ? inputs[adoptInput] : undefined;
    if (typeof adoptId === "string") return settle({ urn, kind, outcome: "adopted", id: adoptId, why: `the object ${adoptInput} adopts` }, taken);
    const body = createBodyFor(kind, inputs);
    const collection = COLLECTION[kind];
    if (!body || !collection) return { urn, kind, outcome: "unresolved", why: "its recorded inputs do not say what was sent" };
    const items: { id: string; status?: string }[] = live[collection];
    const candidates = items
      .filter((item) => !managed.has(item.id) && !taken.has(item.id) && item.status !== "ended" && matchesSent(body, item))
      .map((item) => item.id);
    if (candidates.length === 0) return { urn, kind, outcome: "cleared", why: "no unmanaged object matches what it sent: it never reached the service" };
    if (candidates.length > 1) return { urn, kind, outcome: "unresolved", candidates, why: `${candidates.length} unmanaged objects match exactly; none is taken` };
    return settle({ urn, kind, outcome: "adopted", id: candidates[0], why: "the one unmanaged object matching what it sent" }, taken);
  });
}

function settle(d: Decision, taken: Set<string>): Decision {
  if (d.id) taken.add(d.id);
  return d;
}

/**
 * The export with every pending create settled: each adopted one becomes a resource of the state
 * (its recorded inputs as outputs for now, so the provider can be found; the next refresh reads
 * the live values), the others are dropped. Other pending operations are kept.
 */
export function settled(exported: StackExport, decisions: Decision[]): StackExport {
  const pending = exported.deployment.pending_operations ?? [];
  const adopted = new Map(decisions.filter((d) => d.outcome === "adopted" && d.id).map((d) => [d.urn, d.id]));
  const resources = [...(exported.deployment.resources ?? [])];
  for (const op of pending) {
    const id = op.type === "creating" ? adopted.get(op.resource.urn) : undefined;
    if (id) resources.push({ ...op.resource, id, custom: true, outputs: op.resource.inputs ?? {} });
  }
  return {
    ...exported,
    deployment: { ...exported.deployment, resources, pending_operations: pending.filter((op) => op.type !== "creating") },
  };
}
