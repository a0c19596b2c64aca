import type { FaultInjector } from "voiceagent-emulator";

/** One latency wait the emulator asked for, held by the test. */
export interface HeldDelay {
  ms: number;
  method: string;
  path: string;
}

/** The emulator's latency waits, held until the test lets them go. */
export interface HeldDelays {
  /** Every wait asked for, in order, the ones let through included. */
  asked: HeldDelay[];
  /** How many waits are held now. */
  readonly holding: number;
  /** Resolves once `n` waits are held at once. */
  untilHolding(n: number): Promise<void>;
  /** Ends every held wait: the request carries on as after its latency. */
  release(): void;
  /**
   * Ends every held wait with an error, and every later one at once: the request fails (500)
   * before committing anything (a request still on its way when its client died lands there too).
   */
  fail(): void;
}

/**
 * Replaces the injector's latency timer: the first `pass` waits end at once, every later one is
 * held. A test then proves a latency fault acted by order (the reply waits on the test), not by
 * a clock that a loaded machine slows anyway.
 */
export function holdDelays(faults: FaultInjector, pass = 0): HeldDelays {
  const asked: HeldDelay[] = [];
  let held: { resolve: () => void; reject: (e: Error) => void }[] = [];
  let waiters: { n: number; resolve: () => void }[] = [];
  let failing = false;
  const failure = () => new Error("held latency failed by the test");
  const wake = () => {
    waiters = waiters.filter((w) => {
      if (held.length < w.n) return true;
      w.resolve();
      return false;
    });
  };
  faults.delay = (ms, method, path) => {
    asked.push({ ms, method, path });
    if (asked.length <= pass) return Promise.resolve();
    if (failing) return Promise.reject(failure());
    return new Promise<void>((resolve, reject) => {
      held.push({ resolve, reject });
      wake();
    });
  };
  const end = (how: (h: (typeof held)[number]) => void) => {
    const now = held;
    held = [];
    now.forEach(how);
  };
  return {
    asked,
    get holding() {
      return held.length;
    },
    untilHolding: (n) =>
      new Promise<void>((resolve) => {
        waiters.push({ n, resolve });
        wake();
      }),
    release: () => end((h) => h.resolve()),
    fail: () => {
      failing = true;
      end((h) => h.reject(failure()));
    },
  };
}
