import { z } from "zod";

/**
 * One fault rule. `route` matches a path exactly or, ending in `*`, by prefix (default: every /v1
 * route); `method` narrows it. The rule fires for the next `count` matching requests, or at `rate`
 * (0..1) of them, or always when neither is given.
 */
export const FaultRuleSchema = z
  .object({
    route: z.string().default("*"),
    method: z.enum(["GET", "POST"]).optional(),
    status: z.number().int().min(400).max(599).optional(),
    retryAfterSeconds: z.number().int().min(0).optional(),
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    reset: z.boolean().optional(),
    count: z.number().int().min(1).optional(),
    rate: z.number().min(0).max(1).optional(),
  })
  .refine((r) => r.status !== undefined || r.latencyMs !== undefined || r.reset === true, {
    error: "a fault needs status, latencyMs or reset",
  });
/** A fault rule as configured. */
export type FaultRule = z.infer<typeof FaultRuleSchema>;
/** A fault rule as given (defaults not applied). */
export type FaultRuleInput = z.input<typeof FaultRuleSchema>;

/** What to do to one request. */
export interface FaultAction {
  latencyMs: number;
  status?: number;
  retryAfterSeconds?: number;
  reset: boolean;
}

/** Holds the rules and decides, request by request, which fire. */
export class FaultInjector {
  private rules: { rule: FaultRule; remaining: number | undefined }[] = [];

  constructor(initial: FaultRuleInput[] = []) {
    initial.forEach((r) => this.add(r));
  }

  add(input: FaultRuleInput): FaultRule {
    const rule = FaultRuleSchema.parse(input);
    this.rules.push({ rule, remaining: rule.count });
    return rule;
  }

  clear(): void {
    this.rules = [];
  }

  list(): (FaultRule & { remaining?: number | undefined })[] {
    return this.rules.map((r) => ({ ...r.rule, remaining: r.remaining }));
  }

  /** The combined action of every rule that fires for this request, or undefined. */
  decide(method: string, path: string): FaultAction | undefined {
    if (this.rules.length === 0) return undefined;
    let action: FaultAction | undefined;
    for (const entry of this.rules) {
      const { rule } = entry;
      if (rule.method && rule.method !== method) continue;
      if (!matches(rule.route, path)) continue;
      if (entry.remaining !== undefined && entry.remaining <= 0) continue;
      if (rule.rate !== undefined && Math.random() >= rule.rate) continue;
      if (entry.remaining !== undefined) entry.remaining -= 1;
      action ??= { latencyMs: 0, reset: false };
      action.latencyMs += rule.latencyMs ?? 0;
      if (rule.reset) action.reset = true;
      if (rule.status !== undefined && action.status === undefined) {
        action.status = rule.status;
        if (rule.retryAfterSeconds !== undefined) action.retryAfterSeconds = rule.retryAfterSeconds;
      }
    }
    this.rules = this.rules.filter((r) => r.remaining === undefined || r.remaining > 0);
    return action;
  }
}

function matches(route: string, path: string): boolean {
  const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
  if (route === "*") return clean.startsWith("/v1");
  if (route.endsWith("*")) return clean.startsWith(route.slice(0, -1));
  return clean === route.replace(/\/+$/, "");
}
