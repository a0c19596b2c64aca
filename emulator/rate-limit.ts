/**
 * A per-token request rate limit, as hosted voice platforms apply per API key: a token bucket
 * holding at most `burst` requests that refills at `perSecond`. A request finding the bucket empty
 * is answered 429 with a Retry-After (whole seconds, at least 1) before any work is done.
 */

/** The limit each token gets. */
export interface RateLimitOptions {
  /** Requests a second a token may sustain (> 0). */
  perSecond: number;
  /** Requests a token may send at once after a quiet spell (default: `perSecond`, at least 1). */
  burst?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** The buckets of every token; `now` is injectable so tests need not wait. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly burst: number;

  constructor(
    private readonly opts: RateLimitOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(opts.perSecond > 0))
      throw new Error(`rate limit: perSecond must be a positive number (got ${opts.perSecond})`);
    this.burst = opts.burst ?? Math.max(1, opts.perSecond);
    if (!(this.burst >= 1)) throw new Error(`rate limit: burst must be at least 1 (got ${opts.burst})`);
  }

  /**
   * Takes one request from `token`'s bucket: undefined when allowed, else the seconds to wait
   * before the bucket holds a request again (what Retry-After says).
   */
  take(token: string): number | undefined {
    const now = this.now();
    const b = this.buckets.get(token) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.opts.perSecond);
    b.at = now;
    this.buckets.set(token, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.opts.perSecond));
  }
}
