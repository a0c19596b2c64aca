// The flaky service of the fleet tests (test/e2e/flaky-fleet.test.ts on the dynamic providers,
// test/native/safety.test.ts on the plugin), and the measure that their hard case happened. The mix
// alone does not make it happen: the emulator answers in milliseconds, so a create is answered
// before the next identical one is sent and nothing overlaps. So the tests add slow creates and
// replies lost after commit, and count how many identical creates were in flight together.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FaultRuleInput, RunningEmulator } from "voiceagent-emulator";

/** The fixed mix: 20% of writes refused with 503 before any work, 10% of requests throttled, 10% of writes done and their reply lost. */
export const FAULT_MIX: readonly FaultRuleInput[] = [
  { route: "*", method: "POST", status: 503, rate: 0.2 },
  { route: "*", status: 429, retryAfterSeconds: 1, rate: 0.1 },
  { route: "*", method: "POST", phase: "after", reset: true, rate: 0.1 },
];

/**
 * How long a slow create holds its request open: long enough that the next identical create is
 * sent while it is still open, on any machine (the provider sends them in parallel), short enough
 * that 100 of them in parallel add seconds, not minutes, to an `up`.
 */
export const SLOW_CREATE_MS = 300;

/** Reseeds the emulator's faults and adds the mix (copies: the emulator counts on each rule it holds). */
export function addFaultMix(emu: RunningEmulator, seed = 20261122): void {
  emu.faults.reseed(seed);
  for (const rule of FAULT_MIX) emu.faults.add({ ...rule });
}

/**
 * Makes POSTs to `route` the hard case: each answered SLOW_CREATE_MS after its object is committed
 * (so the list shows an object whose create has not heard back yet, the window in which a check
 * could take another create's object), and the first two committed ones lose their reply while
 * others are in flight, so reconciliation has to tell its object from identical ones.
 */
export function slowAndLost(emu: RunningEmulator, route: string): void {
  emu.faults.add({ route, method: "POST", phase: "after", latencyMs: SLOW_CREATE_MS });
  emu.faults.add({ route, method: "POST", phase: "after", reset: true, count: 2 });
}

/** What the emulator's server saw of POSTs to one route. */
export interface InFlightWatch {
  /** The most requests open at once so far. */
  peak(): number;
  /**
   * Replies cut off: connections closed before the response was finished. Counted here, not from
   * the emulator's fault stats, because those also count after-commit faults that only delay.
   */
  lost(): number;
  /** Stops counting. */
  stop(): void;
}

/** Counts POSTs to `route` open at once at the emulator (from request to closed response), and replies lost. */
export function watchInFlight(emu: RunningEmulator, route: string): InFlightWatch {
  let open = 0;
  let peak = 0;
  let lost = 0;
  const watch = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "POST" || req.url !== route) return;
    peak = Math.max(peak, ++open);
    res.once("close", () => {
      open--;
      if (!res.writableFinished) lost++;
    });
  };
  emu.app.server.on("request", watch);
  return { peak: () => peak, lost: () => lost, stop: () => void emu.app.server.off("request", watch) };
}

/**
 * Holds the slow creates of `route` (their after-commit latency, from slowAndLost) until `together`
 * of them are held at once, then lets them all go, and every later one through with its latency:
 * that many creates are then in flight together by construction, whatever the machine's speed and
 * the provider's pacing. A held create whose client gives up waiting (its attempt timed out on a
 * loaded machine) leaves the hold, so the ones let go are all still open. `together` must be at
 * most what the program sends at once (else the run waits until the test's timeout). A few
 * identical objects need it: with 30 agents the slow creates alone overlap, with 4 prompts they may not.
 */
export function holdUntilTogether(emu: RunningEmulator, route: string, together: number): void {
  const next = emu.faults.delay;
  let held: (() => void)[] = [];
  let open = false;
  emu.faults.delay = (ms, method, path, gone) => {
    if (open || method !== "POST" || path !== route) return next(ms, method, path, gone);
    return new Promise<void>((resolve) => {
      held.push(resolve);
      gone?.addEventListener(
        "abort",
        () => {
          held = held.filter((go) => go !== resolve);
          resolve();
        },
        { once: true },
      );
      if (held.length < together) return;
      open = true;
      for (const go of held) go();
      held = [];
    });
  };
}
