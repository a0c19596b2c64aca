import { z } from "zod";

/** A seed for the fault PRNG: an unsigned 32-bit integer. */
export const FaultSeedSchema = z
  .number({ error: "must be an integer from 0 to 4294967295" })
  .int({ error: "must be an integer from 0 to 4294967295" })
  .min(0, { error: "must be an integer from 0 to 4294967295" })
  .max(0xffffffff, { error: "must be an integer from 0 to 4294967295" });

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
 * fails after the service did the work.
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
  })
  .superRefine((r, ctx) => {
    if (r.status === undefined && r.latencyMs === undefined && r.reset !== true) {
      ctx.addIssue({ code: "custom", message: "a fault needs status, latencyMs or reset: true", path: [] });
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
