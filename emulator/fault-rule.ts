import { z } from "zod";

/** A seed for the fault PRNG: an unsigned 32-bit integer. */
export const FaultSeedSchema = z
  .number({ error: "must be an integer from 0 to 4294967295" })
  .int({ error: "must be an integer from 0 to 4294967295" })
  .min(0, { error: "must be an integer from 0 to 4294967295" })
  .max(0xffffffff, { error: "must be an integer from 0 to 4294967295" });

/**
 * What an `items` fault does to the items of a list page it fires on: those whose fields match
 * every entry of `where` (a field's value as text, or an embedded object's id; a value ending in
 * `*` matches by prefix; empty: every item) get the fields of `set` (a value of the wrong type
 * makes the item unreadable to the client's schema), or are left out of the page with `omit` (and
 * out of its `total`: a list lagging behind a write). On a route answering one object (a create,
 * a read), `set` changes that object alike (a create whose answer cannot be read) and `omit` does
 * nothing.
 */
export const ItemFaultSchema = z
  .strictObject({
    where: z.record(z.string(), z.string()).default({}),
    set: z.record(z.string(), z.json()).optional(),
    omit: z.boolean().optional(),
  })
  .refine((f) => (f.set !== undefined) !== (f.omit === true), {
    error: "an items fault needs set or omit: true (one of them)",
  });
/** An items fault as configured. */
export type ItemFault = z.infer<typeof ItemFaultSchema>;

/**
 * One fault rule. `route` matches a path exactly or, ending in `*`, by prefix (default: every /v1
 * route); `method` narrows it. The rule fires for the next `count` matching requests, or at `rate`
 * (0..1) of them, or always when neither is given. `host` narrows it to requests whose Host header
 * names that host (port aside): one server reached as `127.0.0.1` and as `localhost` can then fail
 * for one of its clients only.
 *
 * `phase: "before"` (default) acts before the request's work: nothing is committed. `phase:
 * "after"` acts once the handler has succeeded and its write is committed: the reply is lost
 * (`reset`) or replaced by a 5xx `status`, which is what a client meets when a proxy or the network
 * fails after the service did the work. `items` (after only) changes the items of a list page
 * that is otherwise answered as usual (see ItemFaultSchema).
 *
 * `skip` lets the first `skip` matching requests through untouched before the rule starts to act:
 * a sequence such as "the first attempt is carried out and loses its reply, the retries are
 * throttled" is an after-commit `reset` with `count: 1` and a 429 with `skip: 1`.
 */
export const FaultRuleSchema = z
  .strictObject({
    route: z.string().min(1).default("*"),
    method: z.enum(["GET", "POST"]).optional(),
    host: z.string().min(1).optional(),
    phase: z.enum(["before", "after"]).default("before"),
    status: z.number().int().min(400).max(599).optional(),
    retryAfterSeconds: z.number().int().min(0).optional(),
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    reset: z.boolean().optional(),
    count: z.number().int().min(1).optional(),
    skip: z.number().int().min(1).optional(),
    rate: z.number().min(0).max(1).optional(),
    items: ItemFaultSchema.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.status === undefined && r.latencyMs === undefined && r.reset !== true && r.items === undefined) {
      ctx.addIssue({ code: "custom", message: "a fault needs status, latencyMs, reset: true or items", path: [] });
    }
    // Before the work there is no answer yet whose items could be changed.
    if (r.items !== undefined && r.phase !== "after") {
      ctx.addIssue({
        code: "custom",
        message: 'an items fault acts on an answer: give phase "after"',
        path: ["items"],
      });
    }
    // A 4xx says "not processed": after the work is committed that would be a lie no service tells.
    if (r.phase === "after" && r.status !== undefined && r.status < 500) {
      ctx.addIssue({
        code: "custom",
        message: "an after-commit fault answers a 5xx status (500 to 599)",
        path: ["status"],
      });
    }
  });
/** A fault rule as configured. */
export type FaultRule = z.infer<typeof FaultRuleSchema>;
/** A fault rule as given (defaults not applied). */
export type FaultRuleInput = z.input<typeof FaultRuleSchema>;
/** When a rule acts: before the work (nothing committed) or after it (committed, reply spoiled). */
export type FaultPhase = FaultRule["phase"];

/** What to do to one request. */
export interface FaultAction {
  latencyMs: number;
  status?: number;
  retryAfterSeconds?: number;
  reset: boolean;
  /** Every items fault that fired, in the order the rules were added. */
  items?: ItemFault[];
}

/**
 * An answer with the items faults applied: a list page's matching items changed or left out (and
 * out of `total`); the one object any other route answers changed by `set` if it matches.
 */
export function spoilItems(answer: unknown, faults: readonly ItemFault[]): unknown {
  if (typeof answer !== "object" || answer === null) return answer;
  if (!("items" in answer) || !Array.isArray(answer.items)) {
    // The one object a read or a write answers: `set` spoils it as it would its list item.
    let one: object = answer;
    for (const f of faults) if (f.set && itemMatches(one, f.where)) one = { ...one, ...f.set };
    return one;
  }
  let items: unknown[] = answer.items;
  let omitted = 0;
  for (const f of faults) {
    const kept: unknown[] = [];
    for (const item of items) {
      if (!itemMatches(item, f.where)) kept.push(item);
      else if (f.omit) omitted += 1;
      else kept.push({ ...(typeof item === "object" ? item : {}), ...f.set });
    }
    items = kept;
  }
  const total = "total" in answer && typeof answer.total === "number" ? { total: answer.total - omitted } : {};
  return { ...answer, items, ...total };
}

function itemMatches(item: unknown, where: Record<string, string>): boolean {
  if (typeof item !== "object" || item === null) return false;
  const fields = new Map(Object.entries(item));
  return Object.entries(where).every(([field, want]) => {
    const v = fields.get(field);
    const text =
      typeof v === "object" && v !== null && "id" in v ? String(v.id) : v === undefined || v === null ? "" : String(v);
    return want.endsWith("*") ? text.startsWith(want.slice(0, -1)) : text === want;
  });
}

/** The host a Host header names, port and IPv6 brackets aside, lower-cased ("" when absent). */
export function hostOf(header: string | undefined): string {
  const text = (header ?? "").trim().toLowerCase();
  const bracketed = /^\[([^\]]*)\]/.exec(text);
  return bracketed?.[1] ?? text.replace(/:\d*$/, "");
}

/** Whether `route` (exact, `*`, or a prefix ending in `*`) covers `path`; a trailing slash is ignored. */
export function routeMatches(route: string, path: string): boolean {
  const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
  if (route === "*") return clean.startsWith("/v1");
  if (route.endsWith("*")) return clean.startsWith(route.slice(0, -1));
  return clean === route.replace(/\/+$/, "");
}
