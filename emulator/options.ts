import type { FastifyInstance, FastifyServerOptions } from "fastify";
import type { AnswerModes } from "./answers.js";
import type { CallBench, CallsOptions } from "./calls/bench.js";
import type { Store } from "./db.js";
import type { FaultRuleInput } from "./fault-rule.js";
import type { FaultInjector } from "./faults.js";
import type { RateLimitOptions } from "./rate-limit.js";
import type { AddNumbersInput, AddNumbersResult } from "./fleet.js";
import type { SeedResult } from "./seed.js";
import type { VoiceAgentService } from "./service.js";
import type { RequestStats } from "./stats.js";

/** How to build an emulator. */
export interface EmulatorOptions {
  /** A SQLite file, ":memory:" (default), or an open Store. */
  db?: string | Store;
  /** Accepted bearer tokens; each maps to its own user. At least one. */
  tokens: string[];
  /** Fault rules active from the start. */
  faults?: FaultRuleInput[];
  /**
   * Seed of the PRNG behind `rate` rules (an unsigned 32-bit integer; random when omitted, and
   * readable from `faults.seed`). The same seed and the same order of requests give the same
   * decisions; concurrent clients make the order vary.
   */
  faultSeed?: number;
  /** Seed every token's user with voices, an action, a webhook and numbers. */
  seed?: boolean;
  /** Fastify/pino logger settings; off by default. The Authorization header is always redacted. */
  logger?: FastifyServerOptions["logger"];
  /** Largest accepted body in bytes (default 1 MiB; larger answers 413). */
  bodyLimit?: number;
  /**
   * Check every response against its schema before sending (a self-check of the emulator; its own
   * tests turn it on). Off by default: clients parse responses anyway, and it halves throughput.
   */
  validateResponses?: boolean;
  /**
   * Which generation of the service's API to speak (docs/contract-current.md): "2023" (default)
   * is the interface (docs/contract.md); "2024" the current API, as its SDK 0.0.48 describes it: prompt objects,
   * normalized list items, five voice types, no null in update bodies, the slash form of
   * GET /v1/agents/ redirected.
   */
  api?: "2023" | "2024";
  /**
   * A limit per token on /v1 requests, like a hosted service's per-key limit: past it the answer is
   * 429 with Retry-After, before any work (counted in `stats.rateLimited`). Off when omitted.
   */
  rateLimit?: RateLimitOptions | undefined;
  /**
   * Answer with the service's defaults (service-defaults.ts): where the service fills in a value
   * for a field a request left out (an agent's `ivr_navigation_mode: "default"`, a number's
   * `outbound_only: false` on the current API), every answer carries it, as a FastAPI service's
   * models do. Off by default: answers then leave such fields out.
   */
  serviceDefaults?: boolean;
  /**
   * The service answering in its own words (answers.ts), combinable with the faults: credentials
   * masked or omitted, unset fields as null, lists in another order or lagging behind writes. Off
   * when omitted: every field answered as sent, lists in the order made and at once.
   */
  answers?: AnswerModes | undefined;
  /**
   * Calls that progress (calls/bench.ts, docs/emulator.md "Calls and events"): outbound calls and
   * inbound ones placed through `POST /admin/calls/inbound` ring, connect, say their lines and end on
   * `clock` (real time unless a `TestClock` is given), and their events are delivered to the agent's
   * webhook. Off when omitted: a call stays as it was made until calls/end.
   */
  calls?: CallsOptions | undefined;
}

/** A built emulator: the Fastify app and the parts tests and the CLI reach into. */
export interface Emulator {
  app: FastifyInstance;
  store: Store;
  service: VoiceAgentService;
  /** The fault rules and their seed; add or clear rules at any time. */
  faults: FaultInjector;
  /** Requests received, writes committed and faults fired (the object `GET /admin/stats` answers). */
  stats: RequestStats;
  /** Zeroes `stats` in place. */
  resetStats(): void;
  /** The seed of each token's user, when seeded. */
  seeds: Map<string, SeedResult>;
  /** Seeds the user of `token` (idempotent). */
  seed(token: string): SeedResult;
  /**
   * Gives the user of `token` active numbers (idempotent; throws an HttpFailure 409 for a number
   * another user owns, a ZodError for bad input), as `POST /admin/numbers` does.
   */
  addNumbers(token: string, input: AddNumbersInput): AddNumbersResult;
  /** The calls in progress and their events' deliveries, when built with `calls`. */
  calls: CallBench | undefined;
}
