import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Pacing to a service's rate limit. A hosted service limits requests per key and answers 429 past
 * it; a client that only backs off from 429s spends its time waiting out Retry-After instead of
 * sending. So each token's requests (every client of that token in one host shares one pacer)
 * go out through a token bucket whose rate is learned: unlimited until the first 429, then the
 * rate the client had actually achieved over the second before it, cut at each later burst of
 * 429s (to 85%, or below the rate the service answered since the first 429) and raised a little every
 * second without one (AIMD on the rate), so it settles just under the limit with few 429s. Each
 * 429's Retry-After is still waited out by the request that met it (got's retry).
 */

/** What the pacer tells the user about (through `onPaceWait` listeners). */
export interface PaceEvent {
  /** The rate requests are paced to, in requests a second. */
  perSecond: number;
  /** How long the request that reports it waits for its turn, in ms. */
  waitMs: number;
}

/** Hears a pacing event (`Pacers.onWait`). */
export type PaceListener = (event: PaceEvent) => void;

/** The text a pacing event is shown as: the rate and the wait, nothing about the account. */
export function paceNote(e: PaceEvent): string {
  const rate = e.perSecond >= 10 ? Math.round(e.perSecond) : Math.round(e.perSecond * 10) / 10;
  return (
    `voiceagent: waiting on the service's rate limit (it answered 429): requests are paced to about ${rate} ` +
    `a second (this one waits ${(e.waitMs / 1000).toFixed(1)}s)`
  );
}

const NOTE_EVERY_MS = 10_000;
/** Requests in the second before a first 429 needed to learn a rate from it. */
const MIN_LEARN = 4;
/** After a burst of 429s, the rate is cut to this fraction of what it was ... */
const DECREASE = 0.85;
/** ... or to this fraction of the rate the service answered since the first 429, if lower. */
const BELOW_ANSWERED = 0.95;
/** Each second without a 429, the rate grows by this fraction (at least `MIN_STEP` a second). */
const INCREASE = 0.04;
const MIN_STEP = 0.5;
/** The window over which the rates sent and answered are measured. */
const WINDOW_MS = 1_000;
/**
 * 429s that keep coming at more than this share of requests after the rate was cut below what the
 * service answered a second are not a rate limit (below a limit's rate 429s stop, and the rate
 * climbs back a few percent a second, so a paced client meets one per many dozen requests; a flaky
 * gateway answers 429 at any rate): the pacer stops pacing and ignores 429s for `IGNORE_MS`,
 * leaving them to the retries' backoff, as without a pacer.
 */
const UNRELATED_SHARE = 0.05;
const IGNORE_MS = 30_000;
/** A learned limit not met for this long is forgotten (the service may have raised it). */
const FORGET_MS = 30_000;
/** How long after a cut a 429 is taken to answer a request sent before it. */
const IN_FLIGHT_MS = 250;

/** Timestamps within the last `WINDOW_MS`. */
class Window {
  private times: number[] = [];
  add(now: number): void {
    this.times.push(now);
    this.trim(now);
  }
  count(now: number): number {
    this.trim(now);
    return this.times.length;
  }
  private trim(now: number): void {
    let drop = 0;
    while (drop < this.times.length && (this.times[drop] ?? now) < now - WINDOW_MS) drop++;
    if (drop > 0) this.times.splice(0, drop);
  }
}

/** The pacer of one token; `now` is monotonic milliseconds. */
export class Pacer {
  /** Requests a second; Infinity until a 429 teaches a limit. */
  private rate = Number.POSITIVE_INFINITY;
  /** When the next request may go (virtual scheduling: one every 1000/rate ms). */
  private nextAt = 0;
  private readonly sent = new Window();
  /** When the first 429 taught the rate, and the requests answered since. */
  private learnedAt = 0;
  private answeredSinceLearn = 0;
  /** Whether the last cut went below what the service answered a second: 429s after it are not the limit's. */
  private belowAnswered = false;
  private lastLimited = Number.NEGATIVE_INFINITY;
  private lastDecrease = Number.NEGATIVE_INFINITY;
  private lastIncrease = 0;
  private lastNote = Number.NEGATIVE_INFINITY;
  private sentSinceDecrease = 0;
  private limitedSinceDecrease = 0;
  private ignoreUntil = Number.NEGATIVE_INFINITY;
  /** 429s this pacer was told of, and the ms its requests spent waiting for their turn. */
  readonly stats = { rateLimited: 0, waitedMs: 0 };

  constructor(
    private readonly now: () => number = () => performance.now(),
    /** Whom a wait is told to (the listeners of the host's pacers). */
    private readonly tell: PaceListener = () => {},
  ) {}

  /** The learned rate (requests a second), or undefined while no 429 has been seen. */
  get perSecond(): number | undefined {
    return Number.isFinite(this.rate) ? this.rate : undefined;
  }

  /** Waits for this request's turn (resolves at once while no limit is known). */
  async take(): Promise<void> {
    const now = this.now();
    this.sent.add(now);
    this.sentSinceDecrease += 1;
    if (Number.isFinite(this.rate) && now - this.lastLimited > FORGET_MS) this.rate = Number.POSITIVE_INFINITY;
    if (!Number.isFinite(this.rate)) return;
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + 1000 / this.rate;
    const waitMs = at - now;
    if (waitMs < 1) return;
    this.stats.waitedMs += waitMs;
    if (now - this.lastNote >= NOTE_EVERY_MS) {
      this.lastNote = now;
      this.tell({ perSecond: this.rate, waitMs });
    }
    await sleep(waitMs);
  }

  /** The service answered 429. */
  onRateLimited(): void {
    this.stats.rateLimited += 1;
    const now = this.now();
    if (now < this.ignoreUntil) return;
    this.lastLimited = now;
    // 429s just after a cut answer requests sent before it: they say nothing of the new rate.
    if (now - this.lastDecrease >= IN_FLIGHT_MS) this.limitedSinceDecrease += 1;
    if (!Number.isFinite(this.rate)) {
      // The rate that met the limit: what was sent in the last second, this request excepted. A
      // 429 after a handful of requests teaches nothing worth pacing to: its Retry-After is
      // waited out by the request that met it, and the client's limiter halves what is in flight.
      const sent = this.sent.count(now) - 1;
      if (sent < MIN_LEARN) return;
      this.rate = sent;
      this.learnedAt = now;
      this.answeredSinceLearn = 0;
      this.belowAnswered = false;
      this.decreased(now);
      this.nextAt = now + 1000 / this.rate;
      return;
    }
    // The requests already sent when the first 429 of a burst came back are one signal, not many.
    if (now - this.lastDecrease < Math.max(1000 / this.rate, 250) * 4) return;
    // (Only once a few requests have gone out at the new rate: a share of none is no evidence.)
    const share = this.sentSinceDecrease >= MIN_LEARN ? this.limitedSinceDecrease / this.sentSinceDecrease : 0;
    if (this.belowAnswered && share > UNRELATED_SHARE) {
      this.rate = Number.POSITIVE_INFINITY;
      this.ignoreUntil = now + IGNORE_MS;
      return;
    }
    // The limit drained the service's bucket at the first 429: since then, what it answered a
    // second is at most the limit (a burst no longer inflates it), so the cut goes below that.
    const elapsed = (now - this.learnedAt) / 1000;
    const answered = elapsed >= 1 ? (this.answeredSinceLearn / elapsed) * BELOW_ANSWERED : undefined;
    const cut = this.rate * DECREASE;
    this.belowAnswered = answered !== undefined && answered >= 0.1;
    this.rate = Math.max(0.1, this.belowAnswered && answered !== undefined ? Math.min(cut, answered) : cut);
    this.decreased(now);
  }

  /** A request was answered (not 429): a second without 429s raises the rate a step. */
  onAnswered(): void {
    if (!Number.isFinite(this.rate)) return;
    const now = this.now();
    this.answeredSinceLearn += 1;
    if (now - this.lastIncrease < 1000) return;
    this.lastIncrease = now;
    this.rate += Math.max(MIN_STEP, this.rate * INCREASE);
  }

  private decreased(now: number): void {
    this.lastDecrease = this.lastIncrease = now;
    this.sentSinceDecrease = 0;
    this.limitedSinceDecrease = 0;
  }
}

/**
 * The pacers of one host (client/stores.ts): one per account and service, whatever the number of
 * clients, since the service limits the account; and who hears their waits.
 */
export class Pacers {
  private readonly byKey = new Map<string, Pacer>();
  private readonly listeners = new Set<PaceListener>();

  /**
   * Calls `listener` when a request waits on a learned rate limit (at most once per `NOTE_EVERY_MS`
   * per token), in the async context of that request. Returns a function that removes it.
   */
  onWait(listener: PaceListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The pacer of `token` at `baseUrl`. Keyed by a hash, so no token is held as a key. */
  for(baseUrl: string, token: string): Pacer {
    const key = createHash("sha256").update(`${baseUrl}\n${token}`).digest("hex");
    let pacer = this.byKey.get(key);
    if (!pacer) {
      pacer = new Pacer(undefined, (event) => {
        for (const l of this.listeners) l(event);
      });
      this.byKey.set(key, pacer);
    }
    return pacer;
  }
}
