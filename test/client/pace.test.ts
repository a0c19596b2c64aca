import { afterEach, describe, expect, it } from "vitest";
import { createClient, onPaceWait, Pacer, type PaceEvent, pacerFor, paceNote } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";

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
    emu = await startEmulator({ tokens: [token], seed: true, rateLimit: { perSecond: 50, burst: 5 } });
    const client = createClient({ baseUrl: emu.url, token, pace: false });
    const ids = emu.seeds.get(token)!.voices;
    await Promise.all(Array.from({ length: 12 }, (_, i) => client.voices.get(ids[i % ids.length]!)));
    expect(sum(emu.stats.rateLimited)).toBeGreaterThan(0);
    expect(pacerFor(emu.url, token).perSecond).toBeUndefined();
  });

  it("learns the rate the client achieved in the second before the first 429, cuts it at each later burst and raises it while none come", async () => {
    let now = 10_000;
    const pacer = new Pacer(() => now);
    for (let i = 0; i < 21; i++) {
      await pacer.take();
      now += 10; // 21 requests in 210 ms: the service's burst, then the 429
    }
    pacer.onRateLimited();
    expect(pacer.perSecond).toBe(20);
    // The other requests in flight when the first 429 came back are the same signal.
    pacer.onRateLimited();
    expect(pacer.perSecond).toBe(20);
    now += 5_000;
    pacer.onAnswered();
    expect(pacer.perSecond).toBeCloseTo(20.8);
    // 24 more answered in the second before the next 429: the cut is to 85%, below 95% of that.
    for (let i = 0; i < 24; i++) {
      now += 40;
      pacer.onAnswered();
    }
    pacer.onRateLimited();
    expect(pacer.perSecond).toBeCloseTo(20.8 * 0.85);
    // A 429 after a handful of requests teaches no rate: nothing is paced.
    const quiet = new Pacer(() => now);
    for (let i = 0; i < 4; i++) await quiet.take();
    quiet.onRateLimited();
    expect(quiet.perSecond).toBeUndefined();
  });

  it("429s that keep coming at the same share after two cuts are not a limit: it stops pacing and ignores them a while", async () => {
    let now = 0;
    const pacer = new Pacer(() => now);
    // A flaky gateway: every tenth request answered 429, whatever the rate.
    const step = async (i: number) => {
      await pacer.take();
      now += 20;
      if (i % 10 === 9) pacer.onRateLimited();
      else pacer.onAnswered();
    };
    let i = 0;
    while (pacer.perSecond === undefined) await step(i++);
    let paced = 0;
    for (; i < 400 && pacer.perSecond !== undefined; i++) {
      paced++;
      // The clock moves by the pace, as the pacer's waits would make it.
      now += 1000 / pacer.perSecond;
      await step(i);
    }
    expect(pacer.perSecond).toBeUndefined();
    expect(paced).toBeLessThan(400);
    // Ignored for a while: a 429 now teaches nothing.
    pacer.onRateLimited();
    expect(pacer.perSecond).toBeUndefined();
  });

  it("says what it waits on, without the account or the address", () => {
    expect(paceNote({ perSecond: 19.6, waitMs: 1234 })).toBe(
      "voiceagent: waiting on the service's rate limit (it answered 429): requests are paced to about 20 a second (this one waits 1.2s)",
    );
  });
});
