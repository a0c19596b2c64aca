import { randomInt } from "node:crypto";
import {
  FaultRuleSchema,
  FaultSeedSchema,
  hostOf,
  routeMatches,
  type FaultAction,
  type FaultPhase,
  type FaultRule,
  type FaultRuleInput,
} from "./fault-rule.js";

/** A rule as listed: its settings and, for a `count` rule, how many firings remain. */
export type ListedFaultRule = FaultRule & { remaining?: number | undefined };

/** A rule in force: how many firings remain (a `count` rule) and how many requests it still lets through (`skip`). */
interface ActiveRule {
  rule: FaultRule;
  remaining: number | undefined;
  skipping: number;
}

/**
 * mulberry32: a tiny, fast 32-bit PRNG (public domain). Statistically fine for fault rates, and
 * its whole state is one integer, so a seed replays a run exactly.
 */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Holds the rules and decides, request by request, which fire. Rate decisions draw from a seeded
 * PRNG: the same seed and the same order of requests give the same decisions. Concurrent clients
 * make the order, and so the decisions, vary from run to run.
 */
export class FaultInjector {
  private rules: ActiveRule[] = [];
  private readonly active = { before: 0, after: 0 };
  private currentSeed = 0;
  private random: () => number = Math.random;
  /**
   * How a latency fault waits: a timer of `ms`. Tests replace it to hold a request until they
   * release it (or reject it: the request then fails with a 500 and commits nothing), so they can
   * prove by order, not by the clock, that the fault acted. `gone` aborts when the client closes
   * the request first (it gave up waiting), so a hold can stop counting it.
   */
  delay: (ms: number, method: string, path: string, gone?: AbortSignal) => Promise<void> = (ms) =>
    new Promise((resolve) => setTimeout(resolve, ms));

  /** `seed` defaults to a random one; read it back from `seed` to replay a run. */
  constructor(initial: FaultRuleInput[] = [], seed: number = randomInt(0, 0xffffffff)) {
    this.reseed(seed);
    for (const r of initial) this.add(r);
  }

  /** The seed the PRNG was last started from. */
  get seed(): number {
    return this.currentSeed;
  }

  /** Restarts the PRNG from `seed`: the decisions that follow replay those of any run from it. */
  reseed(seed: number): void {
    this.currentSeed = FaultSeedSchema.parse(seed);
    this.random = mulberry32(this.currentSeed);
  }

  /** Adds a rule (parsed: throws a ZodError naming the field). */
  add(input: FaultRuleInput): FaultRule {
    const rule = FaultRuleSchema.parse(input);
    this.rules.push({ rule, remaining: rule.count, skipping: rule.skip ?? 0 });
    this.active[rule.phase] += 1;
    return rule;
  }

  /** Removes every rule; the PRNG carries on. */
  clear(): void {
    this.rules = [];
    this.active.before = 0;
    this.active.after = 0;
  }

  /** The rules still in force, in the order they were added. */
  list(): ListedFaultRule[] {
    return this.rules.map((r) => ({ ...r.rule, remaining: r.remaining }));
  }

  /** Whether any rule of `phase` is in force: the cheap check made before anything else. */
  has(phase: FaultPhase): boolean {
    return this.active[phase] > 0;
  }

  /** The combined action of every rule of `phase` that fires for this request (`host`: its Host header), or undefined. */
  decide(phase: FaultPhase, method: string, path: string, host?: string): FaultAction | undefined {
    if (this.active[phase] === 0) return undefined;
    let action: FaultAction | undefined;
    let exhausted = false;
    for (const entry of this.rules) {
      const { rule } = entry;
      if (rule.phase !== phase) continue;
      if (rule.method && rule.method !== method) continue;
      if (!routeMatches(rule.route, path)) continue;
      if (rule.host !== undefined && rule.host.toLowerCase() !== hostOf(host)) continue;
      if (entry.skipping > 0) {
        entry.skipping -= 1;
        continue;
      }
      if (rule.rate !== undefined && this.random() >= rule.rate) continue;
      if (entry.remaining !== undefined) {
        entry.remaining -= 1;
        if (entry.remaining === 0) exhausted = true;
      }
      action ??= { latencyMs: 0, reset: false };
      action.latencyMs += rule.latencyMs ?? 0;
      if (rule.reset) action.reset = true;
      if (rule.items) action.items = [...(action.items ?? []), rule.items];
      if (rule.status !== undefined && action.status === undefined) {
        action.status = rule.status;
        if (rule.retryAfterSeconds !== undefined) action.retryAfterSeconds = rule.retryAfterSeconds;
      }
    }
    if (exhausted) {
      this.rules = this.rules.filter((r) => r.remaining !== 0);
      this.active[phase] = this.rules.filter((r) => r.rule.phase === phase).length;
    }
    return action;
  }
}
