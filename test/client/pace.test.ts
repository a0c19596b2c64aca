import { afterEach, describe, expect, it } from "vitest";
import { createClient, onPaceWait, Pacer, type PaceEvent, pacerFor, paceNote } from "pulumi-voiceagent/client";
import { RateLimiter, startEmulator, type RunningEmulator } from "voiceagent-emulator";
import {
  freshPace,
  paceAnswered,
  paceLimited,
  type PaceState,
  type PaceStore,
  paceTake,
} from "../../provider/client/pace.js";

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

describe("pacing to the service's rate limit", () => {
  it("a burst of creates under a limit meets 429s, learns the limit and converges: every agent made once, no error", async () => {
    const token = "pace-token";
    emu = await startEmulator({ tokens: [token], seed: true, rateLimit: { perSecond: 20, burst: 10 } });
    const voice = emu.seeds.get(token)!.voices[0]!;
    // Seeding went through the store, not the limit: the bucket is full.
    const events: PaceEvent[] = [];
    const off = onPaceWait((e) => events.push(e));
    try {
      const client = createClient({ baseUrl: emu.url, token });
      const n = 60;
      const agents = await Promise.all(
        Array.from({ length: n }, (_, i) => client.agents.create({ prompt: `p${i}`, voice })),
      );
      expect(new Set(agents.map((a) => a.id)).size).toBe(n);
      expect(emu.stats.writes["POST /v1/agents/create"]).toBe(n);
      // The limit was met (the test is about pacing, not about never being limited) ...
      const limited = sum(emu.stats.rateLimited);
      expect(limited).toBeGreaterThan(0);
      // ... and every 429 was sent again: nothing else was.
      expect(emu.stats.byRoute["POST /v1/agents/create"]).toBe(n + limited);
      // The pacer of this token learned a rate and requests waited on it, which listeners heard.
      expect(pacerFor(emu.url, token).perSecond).toBeGreaterThan(0);
      expect(events.length).toBeGreaterThan(0);
    } finally {
      off();
    }
  });

  it("a client with pace: false does not pace (each 429 is only backed off from)", async () => {
    const token = "unpaced";
    // 8 requests sent at once against a bucket of 2 refilling at 2 a second: 429s on any machine.
    emu = await startEmulator({ tokens: [token], seed: true, rateLimit: { perSecond: 2, burst: 2 } });
    const client = createClient({ baseUrl: emu.url, token, pace: false });
    const ids = emu.seeds.get(token)!.voices;
    await Promise.allSettled(Array.from({ length: 8 }, (_, i) => client.voices.get(ids[i % ids.length]!)));
    expect(sum(emu.stats.rateLimited)).toBeGreaterThan(0);
    expect(pacerFor(emu.url, token).perSecond).toBeUndefined();
  });

  it("starting from a 429 on its first requests (the service's bucket empty), it reaches the limit's rate within seconds", async () => {
    const token = "drained";
    const perSecond = 20;
    emu = await startEmulator({ tokens: [token], seed: true, rateLimit: { perSecond, burst: perSecond } });
    const voice = emu.seeds.get(token)!.voices[0]!;
    // Another client of the account used the whole burst: the first requests of this one meet 429s
    // while only the few in flight were sent, so what was sent says nothing of the limit.
    const headers = { authorization: `Bearer ${token}` };
    let drained = false;
    for (let i = 0; i < 200 && !drained; i++)
      drained = (await fetch(`${emu.url}/v1/voices/list`, { headers })).status === 429;
    expect(drained).toBe(true);
    const before = sum(emu.stats.rateLimited);
    const client = createClient({ baseUrl: emu.url, token, retry: { budgetMs: 120_000 } });
    const pacer = pacerFor(emu.url, token);
    let learned = false;
    let forgotten = 0;
    const n = 160; // 8 s at the limit
    const started = performance.now();
    const answeredAt: number[] = [];
    await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        await client.agents.create({ prompt: `p${i}`, voice });
        answeredAt.push(performance.now() - started);
        // Once learned, the limit is still paced to after every cut: no spell of unpaced sending.
        if (pacer.perSecond !== undefined) learned = true;
        else if (learned) forgotten += 1;
      }),
    );
    // Past the first two seconds (learning), the creates answered a second: close to the limit
    // (the service cannot answer more than its rate once its bucket is empty).
    const from = 2_000;
    const to = answeredAt[answeredAt.length - 1]!;
    const late = answeredAt.filter((t) => t >= from).length;
    const limited = sum(emu.stats.rateLimited) - before;
    console.log(
      `drained start at ${perSecond}/s: ${((late * 1000) / (to - from)).toFixed(1)} answered a second after 2 s, ` +
        `${limited} 429s for ${n} creates, ${forgotten} answered while the learned rate was dropped`,
    );
    expect(to - from).toBeGreaterThan(3_000);
    expect((late * 1000) / (to - from)).toBeGreaterThan(perSecond * 0.85);
    expect(forgotten).toBe(0);
    // Few 429s: the drained start's, and a few at each probe of the limit.
    expect(limited).toBeGreaterThan(0);
    expect(limited).toBeLessThan(n * 0.15);
  }, 60_000);

  it(`against the emulator's limiter on a simulated clock (answers 150 ms after sending): it learns the limit, sends close to it every \
second, meets few 429s and keeps pacing`, async () => {
    const perSecond = 20;
    let now = 10_000;
    const limiter = new RateLimiter({ perSecond, burst: perSecond }, () => now);
    // A wait for a turn passes on the simulated clock.
    const pacer = new Pacer(
      () => now,
      undefined,
      async (ms) => {
        now += ms;
      },
    );
    // Requests in flight: when each is answered, when it was sent, and whether the limiter let it through.
    const inFlight: { at: number; sentAt: number; ok: boolean }[] = [];
    const answered = new Map<number, number>();
    const limited = new Map<number, number>();
    let learnedAt: number | undefined;
    let dropped = 0;
    const second = (t: number) => Math.floor((t - 10_000) / 1000);
    const deliver = () => {
      for (let i = inFlight.length - 1; i >= 0; i--) {
        const r = inFlight[i]!;
        if (r.at > now) continue;
        inFlight.splice(i, 1);
        const counts = r.ok ? answered : limited;
        counts.set(second(r.at), (counts.get(second(r.at)) ?? 0) + 1);
        if (r.ok) pacer.onAnswered();
        else pacer.onRateLimited(r.sentAt);
      }
      if (pacer.perSecond !== undefined) learnedAt ??= now;
      else if (learnedAt !== undefined) dropped += 1;
    };
    // Always more to send than the limit allows: each request goes as soon as its turn comes (every
    // 10 ms while nothing is paced), 16 in flight at most.
    while (now < 10_000 + 15_000) {
      const rate = pacer.perSecond;
      now += rate === undefined ? 10 : Math.max(1000 / rate, 1);
      deliver();
      if (inFlight.length >= 16) continue;
      const sentAt = await pacer.take();
      inFlight.push({ at: now + 150, sentAt, ok: limiter.take("t") === undefined });
    }
    // Seconds 5 to 14: the answers and 429s of each.
    const late = Array.from({ length: 10 }, (_, i) => answered.get(i + 5) ?? 0);
    const late429 = Array.from({ length: 10 }, (_, i) => limited.get(i + 5) ?? 0).reduce((x, y) => x + y, 0);
    const all = late.reduce((x, y) => x + y, 0) + late429;
    console.log(
      `simulated ${perSecond}/s: answered a second from the 5th: ${late.join(" ")}; ${late429} 429s of ${all}`,
    );
    expect(learnedAt).toBeDefined();
    expect(dropped).toBe(0);
    // From the fifth second on, close to the limit every second, and on average.
    expect(Math.min(...late)).toBeGreaterThanOrEqual(perSecond * 0.8);
    expect(late.reduce((x, y) => x + y, 0) / late.length).toBeGreaterThanOrEqual(perSecond * 0.9);
    // Few 429s: under 5% of what was sent.
    expect(late429).toBeLessThan(all * 0.05);
  });

  it("429s of requests sent before a cut are not held against the cut rate: it keeps pacing", async () => {
    let now = 10_000;
    const pacer = new Pacer(
      () => now,
      undefined,
      async (ms) => {
        now += ms;
      },
    );
    for (let i = 0; i < 21; i++) {
      await pacer.take();
      now += 10;
    }
    pacer.onRateLimited(now - 20);
    expect(pacer.perSecond).toBe(20);
    for (let i = 0; i < 40; i++) {
      now += 50;
      pacer.onAnswered();
    }
    // Past the limit: a 429 of a request just sent cuts the rate below the 20 a second answered.
    const cutAt = now;
    pacer.onRateLimited(now - 30);
    const cut = pacer.perSecond!;
    expect(cut).toBeLessThan(20);
    // Requests given their turns at the old rate before the cut come back 429 over the next
    // second and a half (a slow service, Retry-After waits), among requests sent at the new rate and answered.
    for (let i = 0; i < 25; i++) {
      now += 60;
      await pacer.take();
      if (i % 5 === 4) pacer.onRateLimited(cutAt - 10 - i);
      else pacer.onAnswered();
    }
    expect(pacer.perSecond).toBeDefined();
    expect(pacer.perSecond!).toBeGreaterThanOrEqual(cut);
  });

  it("learns the rate the client achieved in the second before the first 429 and raises it fast while no 429 comes", async () => {
    let now = 10_000;
    const pacer = new Pacer(
      () => now,
      undefined,
      async (ms) => {
        now += ms;
      },
    );
    for (let i = 0; i < 21; i++) {
      await pacer.take();
      now += 10; // 21 requests in 210 ms: the service's burst, then the 429
    }
    pacer.onRateLimited();
    expect(pacer.perSecond).toBe(20);
    // The other requests in flight when the first 429 came back are the same signal.
    pacer.onRateLimited();
    expect(pacer.perSecond).toBe(20);
    // Three seconds sending as fast as allowed, all answered: no limit met since, so it climbs by half a second.
    for (const until = now + 3_000; now < until; ) {
      now += 1000 / pacer.perSecond!;
      await pacer.take();
      pacer.onAnswered();
    }
    expect(pacer.perSecond).toBeGreaterThan(20 * 1.5 ** 2);
    // A rate not used is not raised: two seconds of few requests leave it where it is.
    const used = pacer.perSecond!;
    for (let i = 0; i < 4; i++) {
      now += 500;
      await pacer.take();
      pacer.onAnswered();
    }
    expect(pacer.perSecond).toBe(used);
    // A 429 after a handful of requests teaches no rate: nothing is paced.
    const quiet = new Pacer(
      () => now,
      undefined,
      async (ms) => {
        now += ms;
      },
    );
    for (let i = 0; i < 4; i++) await quiet.take();
    quiet.onRateLimited();
    expect(quiet.perSecond).toBeUndefined();
  });

  // One in ten, and one in two: then fewer answers come between two cuts (each a few turns after
  // the last) than a cut takes for evidence of what the service answers.
  for (const every of [10, 2])
    it(`429s that keep coming once the rate is below what the service answered are not a limit (one request in ${every}): \
it stops pacing and ignores them a while`, async () => {
      let now = 0;
      const pacer = new Pacer(
        () => now,
        undefined,
        async (ms) => {
          now += ms;
        },
      );
      // A flaky gateway: one request in `every` answered 429, whatever the rate.
      let i = 0;
      const step = async () => {
        await pacer.take();
        now += 20 + (pacer.perSecond ? 1000 / pacer.perSecond : 0);
        if (i++ % every === every - 1) pacer.onRateLimited();
        else pacer.onAnswered();
      };
      while (pacer.perSecond === undefined) await step();
      while (pacer.perSecond !== undefined && i < 200) await step();
      expect(pacer.perSecond).toBeUndefined();
      expect(i).toBeLessThan(50);
      // Ignored for a while: a 429 now teaches nothing.
      for (let k = 0; k < 20; k++) await step();
      expect(pacer.perSecond).toBeUndefined();
    });

  it(`a cut after the service's answers climbed from far below goes just below what it answered lately, not below \
the average since the last cut`, () => {
    const s = freshPace();
    paceLimited(s, 0, 10);
    expect(s.rate).toBe(10);
    // For a minute the service answers more and more, from half a request a second to two (its
    // limit): about 1.1 a second since the rate was learned, 2 in the last seconds.
    let t = 0;
    while (t < 60_000) {
      t += 1000 / (0.5 + (1.5 * t) / 60_000);
      paceAnswered(s, t);
    }
    paceLimited(s, t + 150, 10, t);
    expect(s.rate).toBeGreaterThan(1.6);
    expect(s.rate).toBeLessThan(2);
    // Above what was answered since the rate was learned: not known to be below the limit, so
    // 429s after it are the limit's, not a flaky gateway's.
    expect(s.belowAnswered).toBe(false);
  });

  it("a cut one answer after the rate was learned does not take that answer for the limit", () => {
    const s = freshPace();
    paceLimited(s, 0, 10);
    // The first answers of a run come slowly: one in the 1.6 s since the rate was learned.
    paceAnswered(s, 600);
    paceLimited(s, 1_600, 10, 1_450);
    // Cut from the rate that met the limit, not to the 0.6 a second of that one answer.
    expect(s.rate).toBeGreaterThan(5);
    expect(s.rate).toBeLessThan(10);
    expect(s.belowAnswered).toBe(false);
  });

  it(`a clock set back does not make the answers heard before it look like a second's: the limit is not taken for a \
flaky gateway's`, () => {
    // The service's clock (its bucket: 2 a second) goes on; the client's wall clock goes back an hour.
    let t = 1_000_000;
    let back = 0;
    const limiter = new RateLimiter({ perSecond: 2, burst: 2 }, () => t);
    const s = freshPace();
    let limited = 0;
    /** Sends for `ms` at the pace's rate (each request answered at once), as the service's bucket allows. */
    const send = (ms: number) => {
      for (const until = t + ms; t < until; ) {
        t += s.rate === undefined ? 50 : Math.max(1000 / s.rate, 1);
        const sentAt = t - back;
        paceTake(s, sentAt);
        if (limiter.take("t") === undefined) paceAnswered(s, t - back);
        else {
          limited += 1;
          paceLimited(s, t - back, 20, sentAt);
        }
      }
    };
    // The limit learned and paced to for a minute, a probe above it every few seconds.
    send(60_000);
    expect(s.rate).toBeDefined();
    back = 3_600_000;
    const before = limited;
    send(30_000);
    // Still paced, near the limit, after the 429s of the probes above it.
    expect(limited).toBeGreaterThan(before);
    expect(s.rate).toBeDefined();
    expect(s.rate).toBeLessThan(3);
  });

  it("a 429 told after more than a second's wait for the shared state does not move the queue's next turn back", async () => {
    // Two processes on one shared state, 2 a second learned, ten turns queued. Process A hears a 429;
    // its step waits 1.5 s for the lock (a loaded machine) while B takes a turn. Told at the time A
    // heard it, the 429 looked like A's clock set back 1.5 s behind B's step, and moved the next
    // turn 1.5 s earlier: three requests sent at once into a bucket the 429 said was empty.
    let t = 1_000_000;
    const state: PaceState = { ...freshPace(), rate: 2, ceiling: 2, nextAt: t + 5_000, ticket: 10, seenAt: t };
    state.lastDecrease = state.lastIncrease = t - 500;
    const held: (() => Promise<void>)[] = [];
    const storeOf = (hold: boolean): PaceStore => ({
      now: () => t,
      limited: async () => state.rate !== undefined,
      peek: async () => state,
      update: <R>(step: (s: PaceState, sentElsewhere: () => Promise<number>) => R | Promise<R>) =>
        new Promise<R>((resolve, reject) => {
          const run = async () => resolve(await step(state, async () => 0));
          if (hold) held.push(() => run().catch(reject));
          else run().catch(reject);
        }),
      publishSent: async () => {},
    });
    const a = new Pacer(undefined, undefined, async () => {});
    a.share(storeOf(true));
    // (B's turn is ten turns away: its wait never ends here.)
    const b = new Pacer(undefined, undefined, () => new Promise(() => {}));
    b.share(storeOf(false));
    a.onRateLimited();
    t += 1_500;
    void b.take();
    await new Promise((resolve) => setImmediate(resolve));
    const before = state.nextAt;
    expect(before).toBeGreaterThan(t);
    for (const run of held) await run();
    expect(state.nextAt).toBeGreaterThanOrEqual(before);
  });

  it("the requests sent before a clock set back are not counted as sent in the second before a 429 after it", async () => {
    let t = 5_000_000;
    const pacer = new Pacer(
      () => t,
      undefined,
      async () => {},
    );
    for (let i = 0; i < 10; i++) {
      t += 50;
      await pacer.take();
    }
    // The clock goes back an hour; five requests in the next second, the fifth answered 429.
    t -= 3_600_000;
    for (let i = 0; i < 5; i++) {
      t += 100;
      await pacer.take();
    }
    pacer.onRateLimited();
    // Learned from the four sent in the second before it (the 429's own excepted), not fourteen.
    expect(pacer.perSecond).toBe(4);
  });

  it("says what it waits on, without the account or the address", () => {
    expect(paceNote({ perSecond: 19.6, waitMs: 1234 })).toBe(
      "voiceagent: waiting on the service's rate limit (it answered 429): requests are paced to about 20 a second (this one waits 1.2s)",
    );
  });
});
