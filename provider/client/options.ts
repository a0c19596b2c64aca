import { z } from "zod";
import { DEFAULT_RETRY, type RetryOptions } from "./retry-defaults.js";

export type { RetryOptions } from "./retry-defaults.js";

/** One request as the log hook sees it: the token is never included. */
export interface RequestLogEvent {
  /**
   * "waiting": a create whose outcome is unknown waits to read the list until the creates in flight
   * that could have made a matching object have answered (`attempt` is the check's number).
   * "reconciled": a create whose answer was lost was found through the list and adopted.
   */
  event: "response" | "retry" | "error" | "waiting" | "reconciled";
  method: string;
  path: string;
  status: number;
  attempt: number;
  durationMs: number;
  requestId?: string | undefined;
  /** Request headers with Authorization redacted. */
  headers: Record<string, string>;
  /** On "retry": how long the client waits before sending again (backoff, or the server's Retry-After). */
  delayMs?: number;
}

/** Exactly-once creates (the service has no idempotency keys). */
export interface ReconcileOptions {
  /**
   * After a create whose outcome is unknown (5xx, reset, timeout, unreadable answer), look for
   * the object it may have made through the list endpoint before sending it again. Default true.
   */
  enabled: boolean;
  /**
   * @deprecated Ignored (a count ended creates while most of their budget was left): a create whose every failure provably made nothing is sent
   * again until `retry.budgetMs` is spent, however many attempts that takes.
   */
  attempts: number;
  /**
   * How many times the list is read after one unknown outcome before the create is sent again (or,
   * for a call, reported): a slow service may still be committing, or its list may lag its writes.
   */
  checks: number;
  /**
   * The wait before check n is about `checkDelayMs * 2^(n-1)` (at most `retry.maxDelayMs`): the
   * first check is never immediate, so a service still committing has time to show the object.
   */
  checkDelayMs: number;
}

/** Everything `createClient` accepts besides the base URL and token. */
export interface ClientOptions {
  /** Per-attempt timeout in milliseconds. */
  timeoutMs: number;
  /** Requests in flight at once, shared by all calls of one client. */
  concurrency: number;
  retry: RetryOptions;
  reconcile: ReconcileOptions;
  userAgent: string;
  /** Called for every response, retry and failure, with the token redacted. */
  onRequest?: ((event: RequestLogEvent) => void) | undefined;
  /**
   * Pace requests to the service's rate limit once a 429 has taught it (pace.ts), sharing the pace
   * with every client of the same token and service in this process. Default true.
   */
  pace: boolean;
  /** The clock (epoch ms) that retry budgets and throttle windows are measured with; tests inject one. */
  now: () => number;
}

/** The package version, for the user agent (read by the package's own name: the same from dist/ and from a test's sources). */
export const PACKAGE_VERSION: string = z
  .object({ version: z.string() })
  .parse(require("pulumi-voiceagent/package.json")).version;

/** The client's defaults, merged with what the caller passes. */
export const defaultClientOptions: ClientOptions = {
  timeoutMs: 15_000,
  concurrency: 8,
  retry: DEFAULT_RETRY,
  reconcile: { enabled: true, attempts: 6, checks: 3, checkDelayMs: 250 },
  pace: true,
  userAgent: `pulumi-voiceagent/${PACKAGE_VERSION} (node ${process.versions.node})`,
  now: () => Date.now(),
};

/** Options the caller may pass: any subset, with `retry` and `reconcile` merged field by field. */
export type ClientOptionsInput = Partial<Omit<ClientOptions, "retry" | "reconcile">> & {
  retry?: Partial<RetryOptions>;
  reconcile?: Partial<ReconcileOptions>;
};

/** Merges caller options over the defaults. */
export function mergeOptions(input: ClientOptionsInput = {}): ClientOptions {
  return {
    ...defaultClientOptions,
    ...stripUndefined(input),
    retry: { ...defaultClientOptions.retry, ...stripUndefined(input.retry ?? {}) },
    reconcile: { ...defaultClientOptions.reconcile, ...stripUndefined(input.reconcile ?? {}) },
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
