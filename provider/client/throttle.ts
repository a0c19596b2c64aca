import pLimit, { type LimitFunction } from "p-limit";

/** How the shared limiter behaves. */
export interface ThrottleOptions {
  /** Requests in flight at most (the ceiling the limiter recovers to). */
  concurrency: number;
  /** The clock (epoch ms) a burst of 429s is measured with; default Date.now. */
  now?: (() => number) | undefined;
}

/**
 * One limiter shared by every request of a client. A 429 anywhere slows the whole client, not just
 * the request that was throttled (which would keep the rest hammering a service that asked for
 * less): it halves how many requests may be in flight, once per burst of 429s. Each throttled
 * request keeps its slot while it waits out its Retry-After, so at the lowest limit the whole
 * client waits. Successes raise the limit back by one per window of successes (AIMD).
 */
export class Throttle {
  private readonly limit: LimitFunction;
  private lastDecrease = Number.NEGATIVE_INFINITY;
  private successes = 0;

  constructor(private readonly opts: ThrottleOptions) {
    this.limit = pLimit(opts.concurrency);
  }

  /** Runs `task` (a request with its retries) within the concurrency limit. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return this.limit(task);
  }

  /** The server throttled a request that will wait `retryAfterMs` (or a backoff) before retrying. */
  onRateLimited(retryAfterMs: number | undefined): void {
    const now = (this.opts.now ?? Date.now)();
    // Requests already in flight when the first 429 came back count as one signal, not many.
    if (now - this.lastDecrease >= Math.max(retryAfterMs ?? 0, 100)) {
      this.lastDecrease = now;
      this.limit.concurrency = Math.max(1, Math.floor(this.limit.concurrency / 2));
      this.successes = 0;
    }
  }

  /** A request succeeded: after as many successes as the current limit, allow one more in flight. */
  onSuccess(): void {
    if (this.limit.concurrency >= this.opts.concurrency) return;
    this.successes += 1;
    if (this.successes >= this.limit.concurrency) {
      this.successes = 0;
      this.limit.concurrency += 1;
    }
  }

  /** The current concurrency limit (for tests and logs). */
  get concurrency(): number {
    return this.limit.concurrency;
  }
}
