// The emulator's clock: what moves calls through their stages and spaces a webhook's retries. Real
// time for people; a test clock that only moves when a test says so, so no test sleeps.

/** A timer set on a clock. */
export interface ClockTimer {
  cancel(): void;
}

/** What the call bench and the webhook deliveries read the time from and wait on. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once `ms` have passed on this clock. */
  after(ms: number, fn: () => void): ClockTimer;
}

/** Wall-clock time and real timers (the emulator's default when calls progress). */
export const realClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const t = setTimeout(fn, ms);
    // A pending stage or retry must not keep a process alive that is otherwise done.
    t.unref();
    return { cancel: () => clearTimeout(t) };
  },
};

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * A clock that moves only when told: `next()` runs the earliest timer (setting the time to its
 * due time), `advance(ms)` runs every timer due within `ms`. Timers due at the same time run in
 * the order they were set.
 * @example
 * const clock = new TestClock();
 * const emu = await buildEmulator({ tokens: ["t"], calls: { clock } });
 * await emu.calls?.settle(); // runs the calls to their end, delivering every event
 */
export class TestClock implements Clock {
  private time: number;
  private seq = 0;
  private readonly timers: Pending[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): ClockTimer {
    const p: Pending = { at: this.time + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(p);
    return {
      cancel: () => {
        const i = this.timers.indexOf(p);
        if (i >= 0) this.timers.splice(i, 1);
      },
    };
  }

  /** How many timers are set. */
  get pending(): number {
    return this.timers.length;
  }

  /** Runs the earliest timer; false when none is set. */
  next(): boolean {
    if (this.timers.length === 0) return false;
    this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const p = this.timers.shift();
    if (!p) return false;
    this.time = Math.max(this.time, p.at);
    p.fn();
    return true;
  }

  /** Runs every timer due within `ms` (those they set too), then sets the time `ms` later. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const first = this.timers[0];
      if (!first || first.at > until) break;
      this.next();
    }
    this.time = until;
  }
}
