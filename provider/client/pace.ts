import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Pacing to a service's rate limit. A hosted service limits requests per key and answers 429 past
 * it; a client that only backs off from 429s spends its time waiting out Retry-After instead of
 * sending. So each token's requests (every client of that token in one host shares one pacer)
 * go out through a token bucket whose rate is learned: unlimited until the first 429, then what
 * the client sent in the second before it. Each 429 that teaches or cuts the rate says the
 * service's bucket is empty: from then on what it answers a second is at most its limit, whatever
 * was sent. So each later burst of 429s cuts the rate just below what the service answered a
 * second (since the last cut, or in the last few seconds if that is more; to 85% if lower) and
 * remembers what it answered since the last cut as the limit met. Each second in which the rate
 * was used without a 429 raises it: by half while it is below 90% of the limit
 * met last (or none was met since the first 429: a first 429 may come after a few requests, when
 * what was sent is only what was in flight), by 2% near it (a rate with requests waiting for
 * their turns is used, whatever was asked in the last second). A turn is a place in one queue,
 * not a time: every change of the rate, a cut or a raise, moves the requests already waiting with
 * it (`paceDue`), and the 429s of requests sent before a cut are not held against the new rate
 * (nor taken for a flaky gateway's, below). Each 429's Retry-After is still waited out by the
 * request that met it (got's retry), which then takes a turn again.
 *
 * Far below the demand (twenty stacks' 400 creates behind a limit of two a second, issue 45) this
 * once failed: turns kept the times they were given at the rate of then, so a raise reached only
 * requests asking after it while the rate climbed on requests asked, not sent; a climb of a fixed
 * 0.2 a second met the limit every second or two; a 429 in a handful of requests between two
 * cuts was taken for a flaky gateway's, and the limit forgotten for 30 s with 160 requests queued;
 * and answers were told to the shared state only with a process's next step, so each cut took what
 * the service answered for less than it was. Requests met 429 thirty times in a row.
 *
 * The engine may run several provider processes of one deployment with one token (two explicit
 * providers, the plugin beside the dynamic provider host): each pacing alone, together they send
 * their sum. So a host that joined its deployment keeps each token's state in the deployment's
 * folder (`Pacers.share`, coordination/shared-pace.ts): one schedule, one learned rate, learned from
 * every process's requests.
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
/** The longest answers wait to be told to the shared state when this process takes no step. */
const TELL_MS = 250;
/** The longest a waiting turn sleeps before it looks again where the queue has moved it. */
const RECHECK_MS = 500;
/** Requests in the second before a first 429 needed to learn a rate from it. */
const MIN_LEARN = 4;
/** After a burst of 429s, the rate is cut to this fraction of what it was ... */
const DECREASE = 0.85;
/** ... or to this fraction of what the service answered a second (since the last cut, or lately if more), if lower. */
const BELOW_ANSWERED = 0.95;
/** Each second without a 429 below `FAR_BELOW` of the limit met last (or with none met yet), the rate grows by half ... */
const FAST_INCREASE = 0.5;
const FAR_BELOW = 0.9;
/**
 * ... and near it by this fraction: a share of the rate, not a fixed step, so that at two a second
 * the probe above the limit costs a 429 every few seconds as it does at twenty (a step of 0.2 a
 * second climbed 10% a second at 2/s: a 429 every second or two, on a handful of requests).
 */
const INCREASE = 0.02;
/** The share of its rate a pacer must have sent in the last second for a second without 429s to raise it. */
const USED = 0.8;
/** The window over which the rate sent is measured. */
const WINDOW_MS = 1_000;
/**
 * What the service answered a second is evidence of its limit only when measured over this long
 * at least, and once at least `MIN_LEARN` requests came back (answered or 429): at the start of a
 * run the first answers come slowly (twenty engines starting on two cores), and one answer in the
 * 1.6 s after the rate was learned once cut a limit of 2 a second to 0.6, from which the climb
 * near it took a minute.
 */
const EVIDENCE_MS = 1_000;
/**
 * The windows (two adjacent ones, as for the rate sent) over which what the service answered lately
 * is measured: unlike the answers since the last cut, not lowered by a climb from far below (twenty
 * stacks' answers averaged over 90 s of climbing from 0.8 a second set the next cut at 1.2 under a
 * limit of 2). It may exceed the limit by what the service's bucket held when the windows began,
 * which the cut's other bound (`DECREASE` of the rate) caps.
 */
const RECENT_MS = 2_000;
/**
 * 429s that keep coming at more than this share of the requests sent after the rate was cut below
 * what the service answered a second are not a rate limit (below a limit's rate 429s stop, and the
 * rate climbs back a few percent a second, so a paced client meets one per many dozen requests; a
 * flaky gateway answers 429 at any rate): the pacer stops pacing and ignores 429s for `IGNORE_MS`,
 * leaving them to the retries' backoff, as without a pacer. Only requests that took their turn
 * after the cut count: the ones sent before it were sent at the old rate.
 */
const UNRELATED_SHARE = 0.05;
const IGNORE_MS = 30_000;
/** How far a step's time may lag the latest one seen (another process stepped between its clock read and its turn) before it is a clock set back. */
const CLOCK_LAG_MS = 1_000;
/** A learned limit not met for this long is forgotten (the service may have raised it). */
const FORGET_MS = 30_000;
/** Without the time a 429's request was sent: how long after a cut a 429 is taken to answer a request sent before it. */
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
    // (Times after now are from before a clock set back: kept, they would count for as long as
    // the clock went back, and a rate learned then would be what was sent over all that time.)
    if (this.times.some((t) => t > now)) this.times = this.times.filter((t) => t <= now);
    let drop = 0;
    while (drop < this.times.length && (this.times[drop] ?? now) < now - WINDOW_MS) drop++;
    if (drop > 0) this.times.splice(0, drop);
  }
}

/**
 * What a pacer knows of its token's limit: plain data (JSON), so the provider processes of one
 * deployment can keep one copy in their shared folder (coordination/shared-pace.ts) and pace
 * together. Times are in the pacer's clock's milliseconds (`LONG_AGO` for never).
 */
export interface PaceState {
  /** Requests a second; absent until a 429 teaches a limit. */
  rate?: number | undefined;
  /** What the service answered a second when its limit was last met (set by a cut); absent before. */
  ceiling?: number | undefined;
  /** When the next request may go (virtual scheduling: one every 1000/rate ms). */
  nextAt: number;
  /**
   * The turns given so far (absent where a release wrote none: 0). Turn `k` is due
   * `(ticket - k)` turns before `nextAt` at the current rate, so a turn waiting in the queue moves
   * with every change of the rate, up or down (`paceDue`), instead of keeping the time it was
   * given at the rate of then.
   */
  ticket?: number | undefined;
  /** The requests sent (turns taken) in the window that began at `windowAt`, and in the one before it (0 if not adjacent). */
  windowAt: number;
  sentInWindow: number;
  sentLastWindow: number;
  /** The requests answered (not 429) since the rate was last learned or cut. */
  answeredSinceDecrease: number;
  /**
   * The requests answered (not 429) in the window of `RECENT_MS` that began at `answeredWindowAt`,
   * and in the one just before it, counted from `learnedAt` (when the rate was last learned),
   * whatever the cuts since (absent where a release wrote none: nothing counted yet).
   */
  learnedAt?: number | undefined;
  answeredWindowAt?: number | undefined;
  answeredInWindow?: number | undefined;
  answeredLastWindow?: number | undefined;
  /**
   * Whether the last cut went below what the service answered a second since the cut before it (a
   * lower bound of the limit; not what it answered lately, which may hold what its bucket had saved):
   * 429s after it are not the limit's.
   */
  belowAnswered: boolean;
  lastLimited: number;
  /** When the rate was last learned or cut: turns taken before it were taken at another rate. */
  lastDecrease: number;
  lastIncrease: number;
  sentSinceDecrease: number;
  limitedSinceDecrease: number;
  ignoreUntil: number;
  /**
   * The latest time a step saw (`LONG_AGO` before any): a step at an earlier time is the clock set
   * back (shared pacing runs on the wall clock), which `paceClock` accounts for.
   */
  seenAt?: number | undefined;
  /**
   * When the service last answered (not 429) a request of the token, told by any process; absent
   * before. Waiting for turns is a queue only while this moves (`Pacer.answeredWithin`).
   */
  answeredAt?: number | undefined;
}

/** A time before any other (JSON holds no -Infinity). */
export const LONG_AGO = -Number.MAX_SAFE_INTEGER;

/** The state of a token nothing has been learned of. */
export function freshPace(): PaceState {
  return {
    nextAt: 0,
    windowAt: LONG_AGO,
    sentInWindow: 0,
    sentLastWindow: 0,
    answeredSinceDecrease: 0,
    belowAnswered: false,
    lastLimited: LONG_AGO,
    lastDecrease: LONG_AGO,
    lastIncrease: 0,
    sentSinceDecrease: 0,
    limitedSinceDecrease: 0,
    ignoreUntil: LONG_AGO,
  };
}

/**
 * Brings the state to `now` when the clock went back since its last step (by more than a step's
 * own lag behind another process's): the times still ahead (the next turn, the end of ignoring
 * 429s) move back with the clock, so they are as far ahead as they were, not as far as the clock
 * went back; the times past are at most now, and the answers counted since them are dropped.
 * Ignoring 429s never lasts beyond `IGNORE_MS` from now.
 */
export function paceClock(s: PaceState, now: number): void {
  const seen = s.seenAt ?? LONG_AGO;
  if (now < seen - CLOCK_LAG_MS) {
    const back = seen - now;
    s.nextAt -= back;
    if (s.ignoreUntil !== LONG_AGO) s.ignoreUntil = Math.max(LONG_AGO, s.ignoreUntil - back);
    for (const k of ["windowAt", "lastLimited", "lastDecrease", "lastIncrease"] as const) s[k] = Math.min(s[k], now);
    if (s.answeredAt !== undefined) s.answeredAt = Math.min(s.answeredAt, now);
    if (s.learnedAt !== undefined) s.learnedAt = Math.min(s.learnedAt, now);
    if (s.answeredWindowAt !== undefined) s.answeredWindowAt = Math.min(s.answeredWindowAt, now);
    // The answers counted since those times came over a span no longer known: over the moment
    // since now, they would look many times what the service answers a second (a cut then took
    // that for a lower bound of the limit, and the limit's own 429s for a flaky gateway's).
    s.answeredSinceDecrease = s.answeredInWindow = s.answeredLastWindow = 0;
    s.seenAt = now;
  } else s.seenAt = Math.max(seen, now);
  s.ignoreUntil = Math.min(s.ignoreUntil, now + IGNORE_MS);
}

/**
 * A request asks for its turn at `now`: the ms it waits (0 while no limit is known); its turn's
 * number is then `ticket - 1` (`paceDue`).
 */
export function paceTake(s: PaceState, now: number): number {
  paceClock(s, now);
  s.sentSinceDecrease += 1;
  roll(s, now);
  s.sentInWindow += 1;
  // Forgotten only with no request waiting: a queue at the learned rate is the limit being used,
  // and dropping it would send every waiting request at once.
  if (s.rate !== undefined && now - s.lastLimited > FORGET_MS && s.nextAt <= now) forget(s);
  if (s.rate === undefined) return 0;
  const at = Math.max(now, s.nextAt);
  s.nextAt = at + 1000 / s.rate;
  s.ticket = (s.ticket ?? 0) + 1;
  return at - now;
}

/** The ms until turn `ticket` (from `paceTake`) is due by the rate and queue of `s`: 0 once due, or when no limit is known. */
export function paceDue(s: PaceState, ticket: number, now: number): number {
  if (s.rate === undefined) return 0;
  const behind = (s.ticket ?? 0) - ticket;
  return Math.max(0, s.nextAt - behind * (1000 / s.rate) - now);
}

/** The rate becomes `rate` at `now`: the turns waiting are spaced at it from now on (`paceDue`). */
function respace(s: PaceState, now: number, rate: number): void {
  if (s.rate !== undefined && s.nextAt > now) s.nextAt = now + ((s.nextAt - now) * s.rate) / rate;
  else s.nextAt = Math.max(s.nextAt, now);
  s.rate = rate;
}

/**
 * The service answered 429 at `now`; `sent` is how many requests went out in the second before
 * it, this one excepted (every process's, where they pace together); `sentAt`, when known, is
 * when the request that met it took its turn.
 */
export function paceLimited(s: PaceState, now: number, sent: number, sentAt?: number): void {
  paceClock(s, now);
  if (now < s.ignoreUntil) return;
  // A request that took its turn before the last cut was sent at the old rate: its 429 is the
  // signal the cut already answered, nothing about the new rate.
  if (s.rate !== undefined && sentAt !== undefined && sentAt < s.lastDecrease) return;
  s.lastLimited = now;
  if (s.rate === undefined) {
    // The rate that met the limit: what was sent in the last second (if that was only what was in
    // flight, the climb while no 429 comes makes up for it). A 429 after a handful of requests
    // teaches nothing worth pacing to: its Retry-After is waited out by the request that met it,
    // and the client's limiter halves what is in flight.
    if (sent < MIN_LEARN) return;
    s.rate = sent;
    s.nextAt = now;
    s.ceiling = undefined;
    s.belowAnswered = false;
    s.learnedAt = s.answeredWindowAt = now;
    s.answeredInWindow = s.answeredLastWindow = 0;
    decreased(s, now);
    return;
  }
  if (sentAt !== undefined || now - s.lastDecrease >= IN_FLIGHT_MS) s.limitedSinceDecrease += 1;
  // The requests already sent when the first 429 of a burst came back are one signal, not many.
  if (now - s.lastDecrease < Math.max(1000 / s.rate, 250) * 4) return;
  // (Only once a few requests have gone out at the new rate: a share of none is no evidence; and
  // only while the rate is still below what the service answered: once it has climbed past it, a
  // 429 is the climb meeting the limit, the next cut, which at a low limit comes after a handful.)
  const share = s.sentSinceDecrease >= MIN_LEARN ? s.limitedSinceDecrease / s.sentSinceDecrease : 0;
  if (s.belowAnswered && s.ceiling !== undefined && s.rate <= s.ceiling && share > UNRELATED_SHARE) {
    forget(s);
    s.ignoreUntil = now + IGNORE_MS;
    return;
  }
  // The last learning or cut came with a 429: the service's bucket was empty then, so what it
  // answered a second since is at most its limit (no burst inflates it): a rate below that is
  // below the limit, and it is remembered as the limit met. But it is what the service answered
  // to the rate sent, and a rate that climbed from far below makes it far below the limit: what
  // the service answered lately (`RECENT_MS`) is nearer, so the cut goes just below the higher of
  // the two, and at most `DECREASE` of the rate.
  const proven = answeredRate(s.answeredSinceDecrease, now - s.lastDecrease, s.limitedSinceDecrease);
  const recent = recentlyAnswered(s, now);
  const answered = Math.max(proven ?? 0, recent ?? 0);
  const cut = s.rate * DECREASE;
  const rate = Math.max(0.1, answered > 0 ? Math.min(cut, answered * BELOW_ANSWERED) : cut);
  // (Only a rate below what was answered since the last cut is known to be below the limit: the
  // recent windows may hold what the service's bucket had saved.)
  s.belowAnswered = proven !== undefined && proven >= 0.1 && rate <= proven * BELOW_ANSWERED;
  s.ceiling = proven ?? recent ?? s.rate;
  respace(s, now, rate);
  decreased(s, now);
}

/**
 * `count` answers over `ms` as a rate a second, or undefined when that is too little evidence
 * (`EVIDENCE_MS`): too short, or too few requests came back, answered or `limited` (429). The 429s
 * count: a gateway that answers 429 to every other request leaves fewer than `MIN_LEARN` answers
 * between two cuts (a few turns apart), and counting answers alone, every cut went by `DECREASE`
 * only, never below what it answered, so it was never told from a limit (the rate sank to 0.1 a
 * second for good).
 */
function answeredRate(count: number, ms: number, limited = 0): number | undefined {
  return ms >= EVIDENCE_MS && count + limited >= MIN_LEARN && count > 0 ? (count * 1000) / ms : undefined;
}

/** What the service answered a second over the recent windows (`RECENT_MS`), or undefined without evidence. */
function recentlyAnswered(s: PaceState, now: number): number | undefined {
  rollAnswered(s, now);
  if (s.answeredWindowAt === undefined || s.learnedAt === undefined) return undefined;
  const from = Math.max(s.learnedAt, s.answeredWindowAt - RECENT_MS);
  return answeredRate((s.answeredLastWindow ?? 0) + (s.answeredInWindow ?? 0), now - from);
}

/** Moves the windows of answers to the one `now` is in (windows follow each other, `RECENT_MS` each, from `learnedAt`). */
function rollAnswered(s: PaceState, now: number): void {
  if (s.answeredWindowAt === undefined || now - s.answeredWindowAt < RECENT_MS) return;
  const windows = Math.floor((now - s.answeredWindowAt) / RECENT_MS);
  s.answeredLastWindow = windows === 1 ? (s.answeredInWindow ?? 0) : 0;
  s.answeredInWindow = 0;
  s.answeredWindowAt += windows * RECENT_MS;
}

/** `count` requests were answered (not 429) by `now`: a second without 429s at a rate used raises it a step. */
export function paceAnswered(s: PaceState, now: number, count = 1): void {
  paceClock(s, now);
  if (count > 0) s.answeredAt = Math.max(s.answeredAt ?? LONG_AGO, now);
  if (s.rate === undefined || count === 0) return;
  s.answeredSinceDecrease += count;
  rollAnswered(s, now);
  if (s.answeredWindowAt !== undefined) s.answeredInWindow = (s.answeredInWindow ?? 0) + count;
  roll(s, now);
  if (now - s.lastIncrease < 1000) return;
  s.lastIncrease = now;
  // Only a rate that was used is raised: the requests to send may be fewer than it allows. Requests
  // waiting for their turns use it whatever was asked in the last second.
  // (A turn ahead is the one just given; more than one and a half, a request waiting.)
  if (s.sentLastWindow < s.rate * USED && s.nextAt - now <= 1500 / s.rate) return;
  const far = s.ceiling === undefined || s.rate < s.ceiling * FAR_BELOW;
  const raised = far ? s.rate * (1 + FAST_INCREASE) : s.rate * (1 + INCREASE);
  // A fast climb stops just below the limit met last; from there it goes on slowly. The requests
  // waiting go at the raised rate too.
  respace(
    s,
    now,
    far && s.ceiling !== undefined ? Math.max(s.rate, Math.min(raised, s.ceiling * BELOW_ANSWERED)) : raised,
  );
}

/** Starts a new window of requests sent once the current one is over. */
function roll(s: PaceState, now: number): void {
  if (now - s.windowAt < WINDOW_MS) return;
  s.sentLastWindow = now - s.windowAt < 2 * WINDOW_MS ? s.sentInWindow : 0;
  s.sentInWindow = 0;
  s.windowAt = now;
}

function forget(s: PaceState): void {
  s.rate = undefined;
  s.ceiling = undefined;
}

function decreased(s: PaceState, now: number): void {
  s.lastDecrease = s.lastIncrease = now;
  s.sentSinceDecrease = 0;
  s.limitedSinceDecrease = 0;
  s.answeredSinceDecrease = 0;
  // The windows start again at the new rate: whether it is used is measured at it.
  s.windowAt = now;
  s.sentInWindow = s.sentLastWindow = 0;
}

/**
 * Where a pacer's state lives when it is shared with other processes (coordination/shared-pace.ts):
 * each step runs on the one copy, in turn with every other process's.
 */
export interface PaceStore {
  /** The clock every process sharing the state reads (the wall clock: one machine, one clock). */
  now(): number;
  /** Whether a limit is known, as last read (cheap: no lock; read again at most every few ms). */
  limited(): Promise<boolean>;
  /** The state as last read, read again as `limited` does (no lock): where a waiting turn now stands. */
  peek(): Promise<PaceState>;
  /**
   * Runs `step` on the shared state, in turn with the other processes' steps, and writes what it
   * changed; `sentElsewhere` counts the other processes' requests of the last second. It waits for
   * the state as long as another process holds it (one that died holding it loses it once stale);
   * only when the state cannot be had for another reason (its folder unwritable) does `step` run on
   * the last state read, with nothing written: this process then paces alone.
   */
  update<R>(step: (state: PaceState, sentElsewhere: () => Promise<number>) => R | Promise<R>): Promise<R>;
  /**
   * Tells the other processes how many requests this one sent in the last second (while no limit
   * is known); resolves once told, or at once when the telling waits for its turn.
   */
  publishSent(count: number): Promise<void>;
}

/** The pacer of one token; `now` is monotonic milliseconds, or once shared the store's wall clock (`share`). */
export class Pacer {
  private readonly state = freshPace();
  private readonly sent = new Window();
  private lastNote = Number.NEGATIVE_INFINITY;
  /** Answers not yet told to the shared state (told with the next step, not one lock each). */
  private answeredUntold = 0;
  /** When this process last heard an answer (not 429), told or not. */
  private answeredHere = LONG_AGO;
  private store: PaceStore | undefined;
  /** A 429 being told to the shared state: the next turn waits for it (it may teach the rate). */
  private telling: Promise<void> | undefined;
  /** Answers waiting to be told (`onAnswered`), at most `TELL_MS` from the first. */
  private answering: Promise<void> | undefined;
  /** 429s this pacer was told of, and the ms its requests spent waiting for their turn. */
  readonly stats = { rateLimited: 0, waitedMs: 0 };

  constructor(
    private now: () => number = () => performance.now(),
    /** Whom a wait is told to (the listeners of the host's pacers). */
    private readonly tell: PaceListener = () => {},
    /** How a wait for a turn passes (tests drive the pacer on a simulated clock). */
    private readonly wait: (ms: number) => Promise<unknown> = sleep,
  ) {}

  /**
   * From now on this pacer's state is `store`'s, shared with the other processes of a deployment
   * (Pacers.share); its clock becomes the store's.
   */
  share(store: PaceStore): void {
    this.store = store;
    this.now = () => store.now();
  }

  /** The learned rate (requests a second), or undefined while no 429 has been seen (in this process's last view). */
  get perSecond(): number | undefined {
    return this.state.rate;
  }

  /**
   * Whether the service answered (not 429) a request of this token within the last `ms`, in this
   * process or (shared pacing, as last seen) another: whether the queue of turns moves. The time a
   * request waits for its turn is not charged to its operation's budget while it does; a service
   * that answers nothing but 429 is refusing, not queueing, and the budget runs as usual.
   */
  answeredWithin(ms: number): boolean {
    const at = Math.max(this.state.answeredAt ?? LONG_AGO, this.answeredHere);
    return this.now() - at <= ms;
  }

  /**
   * Waits for this request's turn (at once while no limit is known) and returns when it went, for
   * `onRateLimited`. The turn is a place in the queue, not a time: while it waits, every change of
   * the rate moves it (a cut later, a raise sooner), so it is looked at again at least every
   * `RECHECK_MS` (in shared pacing, the state as last read, no lock) and when its time comes.
   */
  async take(): Promise<number> {
    const asked = this.now();
    this.sent.add(asked);
    const store = this.store;
    const turn = store
      ? await this.sharedTurn(store, asked)
      : { waitMs: paceTake(this.state, asked), ticket: this.ticket() };
    let waitMs = turn.waitMs;
    if (waitMs < 1) return asked;
    if (asked - this.lastNote >= NOTE_EVERY_MS) {
      this.lastNote = asked;
      this.tell({ perSecond: this.state.rate ?? 0, waitMs });
    }
    for (;;) {
      const slept = Math.min(waitMs, RECHECK_MS);
      await this.wait(slept);
      this.stats.waitedMs += slept;
      if (store) this.view(await store.peek());
      const now = this.now();
      waitMs = paceDue(this.state, turn.ticket, now);
      if (waitMs < 1) return now;
    }
  }

  /** The number of the turn `paceTake` just gave. */
  private ticket(): number {
    return (this.state.ticket ?? 0) - 1;
  }

  /** This request's wait and turn, taken from the shared schedule. */
  private async sharedTurn(store: PaceStore, now: number): Promise<{ waitMs: number; ticket: number }> {
    await this.telling;
    if (await store.limited())
      return this.shared(store, (s) => {
        const waitMs = paceTake(s, this.now());
        return { waitMs, ticket: (s.ticket ?? 0) - 1 };
      });
    // No lock while nothing is paced: the others learn this process's rate from what it tells.
    void store.publishSent(this.sent.count(now));
    return { waitMs: 0, ticket: 0 };
  }

  /** Keeps `s` (the shared state as read or written) as this process's view. */
  private view(s: PaceState): void {
    Object.assign(this.state, s, { rate: s.rate, ceiling: s.ceiling, ticket: s.ticket });
  }

  /** The service answered 429 to the request whose turn `take` gave at `sentAt` (when known). */
  onRateLimited(sentAt?: number): void {
    this.stats.rateLimited += 1;
    const now = this.now();
    const mine = this.sent.count(now) - 1;
    const store = this.store;
    if (!store) {
      paceLimited(this.state, now, mine, sentAt);
      return;
    }
    // Told to the others at once (got's retry waits out the Retry-After meanwhile), and this
    // process's next turn is taken once it is; a failure to tell leaves this process's view as it was.
    // At the time of the step, not of the 429: a wait for the lock longer than a second (a loaded
    // machine) would otherwise look like the clock set back since the other processes' steps, and
    // move the queue's next turn back by it (`paceClock`). A 429 to a request sent before a cut made
    // meanwhile is still told by its `sentAt`.
    const told = this.shared(store, async (s, elsewhere) =>
      paceLimited(s, this.now(), mine + (await elsewhere()), sentAt),
    ).catch(() => undefined);
    this.telling = told;
    void told.finally(() => {
      if (this.telling === told) this.telling = undefined;
    });
  }

  /**
   * A request was answered (not 429): a second without 429s raises the rate a step. In shared
   * pacing the answers are told with this process's next step, and at the latest `TELL_MS` later:
   * a process whose requests all wait for their turns takes no step, and answers not told make
   * the next cut take what the service answered for less than it was (a limit of 2 a second was
   * taken for 0.5, deeper at each cut).
   */
  onAnswered(): void {
    this.answeredHere = this.now();
    const store = this.store;
    if (!store) paceAnswered(this.state, this.now());
    else if (this.state.rate !== undefined) {
      this.answeredUntold += 1;
      this.answering ??= this.wait(TELL_MS)
        .then(() => (this.answeredUntold > 0 ? this.shared(store, () => undefined) : undefined))
        .catch(() => undefined)
        .finally(() => {
          this.answering = undefined;
        });
    }
  }

  /** Runs `step` on the shared state (with the answers not yet told), and keeps its result as this process's view. */
  private shared<R>(
    store: PaceStore,
    step: (s: PaceState, elsewhere: () => Promise<number>) => R | Promise<R>,
  ): Promise<R> {
    const answered = this.answeredUntold;
    this.answeredUntold = 0;
    return store.update(async (s, elsewhere) => {
      paceAnswered(s, this.now(), answered);
      const result = await step(s, elsewhere);
      this.view(s);
      return result;
    });
  }
}

/**
 * The pacers of one host (client/stores.ts): one per account and service, whatever the number of
 * clients, since the service limits the account; and who hears their waits.
 */
export class Pacers {
  private readonly byKey = new Map<string, { pacer: Pacer; token: string }>();
  private readonly listeners = new Set<PaceListener>();
  /** Where each token's state lives once the host shares it with its deployment (`share`). */
  private storeFor: ((token: string) => PaceStore) | undefined;

  /**
   * From now on every pacer of this host (those made already and those to come) keeps its state in
   * `storeFor(token)`, shared with the deployment's other processes: the service limits the token,
   * whatever the address or the process it is sent from.
   */
  share(storeFor: (token: string) => PaceStore): void {
    this.storeFor = storeFor;
    for (const { pacer, token } of this.byKey.values()) pacer.share(storeFor(token));
  }

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
    const known = this.byKey.get(key);
    if (known) return known.pacer;
    const pacer = new Pacer(undefined, (event) => {
      for (const l of this.listeners) l(event);
    });
    if (this.storeFor) pacer.share(this.storeFor(token));
    this.byKey.set(key, { pacer, token });
    return pacer;
  }
}
