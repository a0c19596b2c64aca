import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, Throttle } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";

let emu: RunningEmulator | undefined;
let server: RecordingServer | undefined;
afterEach(async () => {
  await emu?.close();
  await server?.close();
});
const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 } };

describe("retries", () => {
  it("a read answered 503 is retried and succeeds", async () => {
    emu = await startEmulator({ tokens: ["r"], seed: true, faults: [{ route: "/v1/voices", status: 503, count: 2 }] });
    const client = createClient({ baseUrl: emu.url, token: "r", ...fast });
    const id = emu.seeds.get("r")!.voices[0]!;
    const events: string[] = [];
    const logged = createClient({ baseUrl: emu.url, token: "r", ...fast, onRequest: (e) => events.push(`${e.event}:${e.status}`) });
    expect((await logged.voices.get(id)).id).toBe(id);
    expect(events).toEqual(["retry:503", "retry:503", "response:200"]);
    expect((await client.voices.get(id)).id).toBe(id);
    expect(emu.stats.byRoute["GET /v1/voices"]).toBe(4);
  });

  it("a create answered 503 is checked against the list before it is sent again: one agent", async () => {
    emu = await startEmulator({ tokens: ["r"], seed: true, faults: [{ route: "/v1/agents/create", status: 503, count: 1 }] });
    const client = createClient({ baseUrl: emu.url, token: "r", ...fast });
    const voice = emu.seeds.get("r")!.voices[0]!;
    const agent = await client.agents.create({ prompt: "p", voice });
    expect(emu.stats.byRoute["POST /v1/agents/create"]).toBe(2);
    expect((await client.agents.list.all()).map((a) => a.id)).toEqual([agent.id]);
  });

  it("a create answered 429 (not processed) is retried once allowed", async () => {
    emu = await startEmulator({ tokens: ["r"], seed: true, faults: [{ route: "/v1/agents/create", status: 429, retryAfterSeconds: 0, count: 1 }] });
    const client = createClient({ baseUrl: emu.url, token: "r", ...fast });
    const agent = await client.agents.create({ prompt: "p", voice: emu.seeds.get("r")!.voices[0]! });
    expect(agent.prompt).toBe("p");
    expect(emu.stats.byRoute["POST /v1/agents/create"]).toBe(2);
    expect((await client.agents.list.all()).length).toBe(1);
  });

  it("a reset connection on a read is retried", async () => {
    emu = await startEmulator({ tokens: ["r"], seed: true, faults: [{ route: "/v1/numbers/list", reset: true, count: 1 }] });
    const client = createClient({ baseUrl: emu.url, token: "r", ...fast });
    expect((await client.numbers.list.page()).total).toBe(4);
  });
});

describe("concurrency cap", () => {
  it("never has more requests in flight than the cap under 200 parallel calls", async () => {
    let inFlight = 0;
    let peak = 0;
    const voice = { id: randomUUID(), user_id: randomUUID(), type: "voice_base", voice_name: "a", pitch: 0, rate: 0 };
    server = await startRecordingServer(async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      return { json: voice };
    });
    const client = createClient({ baseUrl: server.url, token: "c", concurrency: 5 });
    const results = await Promise.all(Array.from({ length: 200 }, () => client.voices.get(voice.id)));
    expect(results).toHaveLength(200);
    expect(server.requests).toHaveLength(200);
    expect(peak).toBe(5);
  });
});

describe("throttling slows the whole client", () => {
  it("a 429 halves how many requests the client has in flight", async () => {
    const voice = { id: randomUUID(), user_id: randomUUID(), type: "voice_base", voice_name: "a", pitch: 0, rate: 0 };
    const firstId = randomUUID();
    let throttled = false;
    let inFlight = 0;
    let peak = 0;
    server = await startRecordingServer(async (req) => {
      if (!throttled && req.query.id === firstId) {
        throttled = true;
        return { status: 429, headers: { "retry-after": "1" }, json: { detail: "slow down" } };
      }
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight -= 1;
      return { json: voice };
    });
    const client = createClient({ baseUrl: server.url, token: "c", concurrency: 8, retry: { baseDelayMs: 1 } });
    const first = client.voices.get(firstId);
    await new Promise((r) => setTimeout(r, 50));
    // 8 → 4 slots, one held by the throttled request while it waits out its Retry-After; the
    // successes win one slot back (AIMD). Unthrottled, 7 would be in flight.
    await Promise.all(Array.from({ length: 12 }, () => client.voices.get(voice.id)));
    expect(peak).toBeLessThanOrEqual(4);
    const started = Date.now();
    await first;
    expect(Date.now() - started).toBeGreaterThan(500);
  });

  it("the limiter halves concurrency on a 429 (once per burst) and wins it back one step per window", () => {
    const t = new Throttle({ concurrency: 8 });
    t.onRateLimited(0);
    t.onRateLimited(0);
    expect(t.concurrency).toBe(4);
    for (let i = 0; i < 4; i++) t.onSuccess();
    expect(t.concurrency).toBe(5);
    for (let i = 0; i < 100; i++) t.onSuccess();
    expect(t.concurrency).toBe(8);
  });

  it("the budget bounds the time one operation spends retrying", async () => {
    server = await startRecordingServer(() => ({ status: 503, json: { detail: "down" } }));
    const client = createClient({ baseUrl: server.url, token: "c", retry: { baseDelayMs: 100, maxDelayMs: 100, limit: 50, budgetMs: 500 } });
    const started = Date.now();
    await expect(client.voices.get(randomUUID())).rejects.toMatchObject({ status: 503 });
    const took = Date.now() - started;
    expect(took).toBeLessThan(2_000);
    expect(server.requests.length).toBeGreaterThan(1);
    expect(server.requests.length).toBeLessThan(20);
  });
});
