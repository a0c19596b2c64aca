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
    // 8 requests sent at once against a bucket of 2 refilling at 2 a second: 429s on any machine.
    emu = await startEmulator({ tokens: [token], seed: true, rateLimit: { perSecond: 2, burst: 2 } });
    const client = createClient({ baseUrl: emu.url, token, pace: false });
    const ids = emu.seeds.get(token)!.voices;
    await Promise.allSettled(Array.from({ length: 8 }, (_, i) => client.voices.get(ids[i % ids.length]!)));
    expect(sum(emu.stats.rateLimited)).toBeGreaterThan(0);
    expect(pacerFor(emu.url, token).perSecond).toBeUndefined();
  });

  it(`learns the rate the client achieved in the second before the first 429, cuts it below what the service answered since, and raises it \
while no 429 comes`, async () => {
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
    // Five seconds answered at 20 a second (the limit): each second raises the rate 4%.
    for (let i = 0; i < 100; i++) {
      now += 50;
      pacer.onAnswered();
    }
    expect(pacer.perSecond).toBeCloseTo(20 * 1.04 ** 5);
    // Past the limit now: the cut goes below the 20 a second the service answered, not to 85%.
    pacer.onRateLimited();
    expect(pacer.perSecond).toBeCloseTo(19);
    // A 429 after a handful of requests teaches no rate: nothing is paced.
    const quiet = new Pacer(() => now);
    for (let i = 0; i < 4; i++) await quiet.take();
    quiet.onRateLimited();
    expect(quiet.perSecond).toBeUndefined();
  });

  it("429s that keep coming once the rate is below what the service answered are not a limit: it stops pacing and ignores them a while", async () => {
    let now = 0;
    const pacer = new Pacer(() => now);
    // A flaky gateway: every tenth request answered 429, whatever the rate.
    let i = 0;
    const step = async () => {
      await pacer.take();
      now += 20 + (pacer.perSecond ? 1000 / pacer.perSecond : 0);
      if (i++ % 10 === 9) pacer.onRateLimited();
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

  it("says what it waits on, without the account or the address", () => {
    expect(paceNote({ perSecond: 19.6, waitMs: 1234 })).toBe(
      "voiceagent: waiting on the service's rate limit (it answered 429): requests are paced to about 20 a second (this one waits 1.2s)",
    );
  });
});
