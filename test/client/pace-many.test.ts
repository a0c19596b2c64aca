// Many processes of one token sharing one pace (issue 45: twenty tenant stacks deploying at once on
// one machine) against the emulator's own limiter, on a simulated clock: every wait for a turn, every
// Retry-After and every answer's latency passes in simulated time, so a run of minutes takes a
// second and comes out the same every time. The shared state is kept in memory here (what the
// machine's folder holds for coordination/shared-pace.ts, whose locking test/coordination/
// shared-pace.test.ts covers with real processes); the pacer, its state's steps, the client's
// limiter and the emulator's bucket are the real ones.
import { describe, expect, it } from "vitest";
import { RateLimiter } from "voiceagent-emulator";
import { freshPace, Pacer, type PaceState, type PaceStore } from "../../provider/client/pace.js";
import { Throttle } from "../../provider/client/throttle.js";

/** A simulated clock: the earliest timer fires next, once every promise the last one resolved has run. */
class Clock {
  now = 0;
  private seq = 0;
  private readonly timers: { at: number; seq: number; fire: () => void }[] = [];
  wait = (ms: number): Promise<void> =>
    new Promise((fire) => {
      this.timers.push({ at: this.now + Math.max(0, ms), seq: this.seq++, fire });
    });
  /** Runs until `done`, or until `until` ms of simulated time have passed. */
  async run(done: () => boolean, until: number): Promise<void> {
    while (this.now <= until) {
      // (setImmediate runs after every pending promise callback: the simulated processes have
      // all done what the last timer let them do.)
      await new Promise((resolve) => setImmediate(resolve));
      if (done()) return;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers.shift();
      if (!next) throw new Error("nothing left to run, and the requests are not all answered");
      this.now = Math.max(this.now, next.at);
      next.fire();
    }
  }
}

/** The one state every simulated process steps on, and the counts each told while no limit was known. */
function memoryStores(clock: Clock) {
  const state = freshPace();
  const told = new Map<object, number>();
  const store = (): PaceStore => {
    const me = {};
    return {
      now: () => clock.now,
      limited: async () => state.rate !== undefined,
      peek: async () => state,
      update: async <R>(step: (s: PaceState, sentElsewhere: () => Promise<number>) => R | Promise<R>) =>
        step(state, async () => [...told].filter(([k]) => k !== me).reduce((sum, [, n]) => sum + n, 0)),
      publishSent: async (count: number) => {
        told.set(me, count);
      },
    };
  };
  return store;
}

/** How the processes start and how fast the service answers. */
interface Timing {
  /** Between one process's start and the next's. */
  spacingMs: number;
  /** Until `slowUntilMs` (simulated) each answer comes `slowMs` after its request, then `answerMs` after. */
  answerMs: number;
  slowUntilMs: number;
  slowMs: number;
}

/** Processes started 200 ms apart, each answer 150 ms after its request. */
const STEADY: Timing = { spacingMs: 200, answerMs: 150, slowUntilMs: 0, slowMs: 150 };

/**
 * `processes` processes of one token, each with `perProcess` requests to send at once (the engine's
 * creates, 8 in flight as the client allows), started and answered as `timing` says, against a
 * limit of `perSecond` (burst the same, as the bench runs it). A 429 is retried after its
 * Retry-After, as the transport does, for as long as it takes.
 */
async function deploy(perSecond: number, processes: number, perProcess: number, timing: Timing = STEADY) {
  const clock = new Clock();
  const limiter = new RateLimiter({ perSecond, burst: perSecond }, () => clock.now);
  const storeFor = memoryStores(clock);
  let limited = 0;
  /** The 429s met once the first 15 s are over: the limit learned, the first burst's retries through. */
  let limitedLate = 0;
  let answered = 0;
  let most429s = 0;
  let lastAnswerAt = 0;
  for (let p = 0; p < processes; p++) {
    const pacer = new Pacer(() => clock.now, undefined, clock.wait);
    pacer.share(storeFor());
    const throttle = new Throttle({ concurrency: 8, now: () => clock.now });
    const request = async () => {
      for (let met = 0; ; met++) {
        const sentAt = await pacer.take();
        const retryAfter = limiter.take("token");
        await clock.wait(clock.now < timing.slowUntilMs ? timing.slowMs : timing.answerMs);
        if (retryAfter === undefined) {
          pacer.onAnswered();
          throttle.onSuccess();
          answered += 1;
          most429s = Math.max(most429s, met);
          lastAnswerAt = clock.now;
          return;
        }
        limited += 1;
        if (clock.now > 15_000) limitedLate += 1;
        pacer.onRateLimited(sentAt);
        if (pacer.perSecond === undefined) throttle.onRateLimited(retryAfter * 1000);
        await clock.wait(retryAfter * 1000);
      }
    };
    void clock
      .wait(p * timing.spacingMs)
      .then(() => Promise.all(Array.from({ length: perProcess }, () => throttle.run(request))));
  }
  const total = processes * perProcess;
  // Ten times the floor: a pace that lost the limit would otherwise keep the test for minutes.
  await clock.run(() => answered === total, (10 * 1000 * total) / perSecond);
  return { answered, limited, limitedLate, most429s, seconds: lastAnswerAt / 1000, floor: total / perSecond };
}

describe("twenty processes sharing one pace against the service's limiter (simulated clock)", () => {
  // 2 a second: the limit far below what twenty processes ask at once (160 requests in flight for a
  // bucket of 2), where the pace once forgot the limit it had learned and let every process send
  // unpaced for 30 s (1,082 429s, requests 429'd eleven times in a row); and 20 a second.
  for (const perSecond of [2, 20])
    it(`20 x 20 requests under ${perSecond}/s: few 429s, none met by a request more than twice, and done close to the limit's floor`, async () => {
      const run = await deploy(perSecond, 20, 20);
      console.log(
        `20 processes x 20 requests under ${perSecond}/s (simulated): ${run.limited} 429s, at most ${run.most429s} ` +
          `for one request, ${run.seconds.toFixed(1)} s for a floor of ${run.floor} s`,
      );
      expect(run.answered).toBe(20 * 20);
      // A few per process: learning the limit at the start, then a probe above it every few seconds.
      expect(run.limited).toBeLessThanOrEqual(4 * 20);
      expect(run.most429s).toBeLessThanOrEqual(2);
      // The target, in simulated seconds (the real machine's CPU is the bench's business).
      expect(run.seconds).toBeLessThanOrEqual(1.15 * run.floor);
    });

  // Twenty engines starting at once on two cores: every process's first requests go out together
  // (160 in flight for a bucket of 2: 158 429s before anything is known), and the service's first
  // answers take 2 s. The first cut once took one answer in 1.6 s for the limit (0.6 a second
  // under a limit of 2) and the climb back near it, 2% a second, took a minute: 1.39x the floor.
  it("20 x 20 requests under 2/s started at once, the first answers slow: done close to the limit's floor, few 429s once learned", async () => {
    const run = await deploy(2, 20, 20, { spacingMs: 0, answerMs: 150, slowUntilMs: 4_000, slowMs: 2_000 });
    console.log(
      `20 processes x 20 requests under 2/s started at once (simulated): ${run.limited} 429s ` +
        `(${run.limitedLate} after 15 s), at most ${run.most429s} for one request, ${run.seconds.toFixed(1)} s for a floor of ${run.floor} s`,
    );
    expect(run.answered).toBe(20 * 20);
    expect(run.seconds).toBeLessThanOrEqual(1.15 * run.floor);
    // Once learned, a probe above the limit every few seconds: a few per process over the run.
    expect(run.limitedLate).toBeLessThanOrEqual(2 * 20);
    expect(run.most429s).toBeLessThanOrEqual(4);
  });
});
