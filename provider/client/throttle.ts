import pLimit, { type LimitFunction } from "p-limit";

/** How the shared limiter reacts to throttling. */
export interface ThrottleOptions {
  /** Requests in flight at most (the ceiling the limiter recovers to). */
  concurrency: number;
  /** A pause asked by the server (Retry-After) longer than this is capped to it. */
  maxPauseMs: number;
  /** The pause after a 429 without Retry-After. */
  defaultPauseMs: number;
}

/**
 * One limiter shared by every request of a client. A 429 anywhere pauses every request of the
 * client until the server's Retry-After has passed (not just the one that was throttled, which
 * would keep the rest hammering a service that asked for less), and halves how many requests may be
 * in flight; successes raise it back by one per window of successes (AIMD), up to the ceiling.
 */
export class Throttle {
  private readonly limit: LimitFunction;
  private pausedUntil = 0;
  private lastDecrease = 0;
  private successes = 0;

  constructor(private readonly opts: ThrottleOptions) {
    this.limit = pLimit(opts.concurrency);
  }

  /** Runs `task` within the concurrency limit, after any pause in force. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return this.limit(async () => {
      await this.wait();
      return task();
    });
  }

  /** Resolves once no pause is in force (a pause may be extended while waiting). */
  async wait(): Promise<void> {
    for (let left = this.pausedUntil - Date.now(); left > 0; left = this.pausedUntil - Date.now()) {
      await new Promise((resolve) => setTimeout(resolve, left));
    }
  }

  /** Milliseconds of pause still in force. */
  pauseLeftMs(): number {
    return Math.max(0, this.pausedUntil - Date.now());
  }

  /** The server throttled a request: pause everyone and lower the concurrency. */
  onRateLimited(retryAfterMs: number | undefined): void {
    const now = Date.now();
    const pause = Math.min(this.opts.maxPauseMs, retryAfterMs ?? this.opts.defaultPauseMs);
    this.pausedUntil = Math.max(this.pausedUntil, now + pause);
    // Requests already in flight when the first 429 came back count as one signal, not many.
    if (now - this.lastDecrease >= Math.max(pause, 100)) {
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
