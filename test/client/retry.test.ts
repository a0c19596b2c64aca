import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClient, Throttle, type RequestLogEvent } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import {
  settled,
  startGatedServer,
  watchStartedRequests,
  type GatedServer,
  type StartedRequests,
} from "../helpers/gated-server.js";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";
import { gate } from "../helpers/gate.js";

let emu: RunningEmulator | undefined;
let server: RecordingServer | undefined;
let gated: GatedServer | undefined;
let started: StartedRequests;
beforeEach(() => {
  started = watchStartedRequests();
});
afterEach(async () => {
  started.stop();
  await emu?.close();
  await server?.close();
  await gated?.close();
  emu = server = gated = undefined;
});
/** The voice the service would answer for `id`. */
const voiceWith = (id: string) => ({ id, user_id: USER, type: "voice_base", voice_name: "a", pitch: 0, rate: 0 });
const USER = randomUUID();
const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 } };

describe("retries", () => {
  it("a read answered 503 is retried and succeeds", async () => {
    emu = await startEmulator({ tokens: ["r"], seed: true, faults: [{ route: "/v1/voices", status: 503, count: 2 }] });
    const client = createClient({ baseUrl: emu.url, token: "r", ...fast });
    const id = emu.seeds.get("r")!.voices[0]!;
    const events: string[] = [];
    const logged = createClient({
      baseUrl: emu.url,
      token: "r",
      ...fast,
      onRequest: (e) => events.push(`${e.event}:${e.status}`),
    });
    expect((await logged.voices.get(id)).id).toBe(id);
    expect(events).toEqual(["retry:503", "retry:503", "response:200"]);
    expect((await client.voices.get(id)).id).toBe(id);
    expect(emu.stats.byRoute["GET /v1/voices"]).toBe(4);
  });

  it("a create answered 503 is checked against the list before it is sent again: one agent", async () => {
    emu = await startEmulator({
      tokens: ["r"],
      seed: true,
      faults: [{ route: "/v1/agents/create", status: 503, count: 1 }],
    });
    const client = createClient({ baseUrl: emu.url, token: "r", ...fast });
    const voice = emu.seeds.get("r")!.voices[0]!;
    const agent = await client.agents.create({ prompt: "p", voice });
    expect(emu.stats.byRoute["POST /v1/agents/create"]).toBe(2);
    expect((await client.agents.list.all()).map((a) => a.id)).toEqual([agent.id]);
  });

  it("a create answered 429 (not processed) is retried once allowed", async () => {
    emu = await startEmulator({
      tokens: ["r"],
      seed: true,
      faults: [{ route: "/v1/agents/create", status: 429, retryAfterSeconds: 0, count: 1 }],
    });
    const client = createClient({ baseUrl: emu.url, token: "r", ...fast });
    const agent = await client.agents.create({ prompt: "p", voice: emu.seeds.get("r")!.voices[0]! });
    expect(agent.prompt).toBe("p");
    expect(emu.stats.byRoute["POST /v1/agents/create"]).toBe(2);
    expect((await client.agents.list.all()).length).toBe(1);
  });

  it(`429s (never carried out) do not use up the retries: a read answered 429 more times than \`retry.limit\` allows still \
succeeds within its deadline; 503s still count`, async () => {
    emu = await startEmulator({
      tokens: ["r"],
      seed: true,
      faults: [{ route: "/v1/voices", method: "GET", status: 429, retryAfterSeconds: 0, count: 6 }],
    });
    const limit = 2;
    const client = createClient({ baseUrl: emu.url, token: "r", pace: false, retry: { ...fast.retry, limit } });
    const id = emu.seeds.get("r")!.voices[0]!;
    expect((await client.voices.get(id)).id).toBe(id);
    expect(emu.stats.byRoute["GET /v1/voices"]).toBe(7);
    // Other failures still count: three attempts at most with a limit of 2.
    await emu.close();
    emu = await startEmulator({
      tokens: ["r"],
      seed: true,
      faults: [{ route: "/v1/voices", method: "GET", status: 503, count: 6 }],
    });
    const again = createClient({ baseUrl: emu.url, token: "r", pace: false, retry: { ...fast.retry, limit } });
    await expect(again.voices.get(emu.seeds.get("r")!.voices[0]!)).rejects.toMatchObject({
      status: 503,
      attempts: limit + 1,
    });
  });

  it("a reset connection on a read is retried", async () => {
    emu = await startEmulator({
      tokens: ["r"],
      seed: true,
      faults: [{ route: "/v1/numbers/list", reset: true, count: 1 }],
    });
    const client = createClient({ baseUrl: emu.url, token: "r", ...fast });
    expect((await client.numbers.list.page()).total).toBe(4);
  });
});

describe("concurrency cap", () => {
  it("keeps exactly the cap in flight: N requests together, request N+1 started only once one is answered", async () => {
    const cap = 5;
    const ids: string[] = Array.from({ length: 12 }, () => randomUUID());
    gated = await startGatedServer(
      () => "hold",
      (req) => ({ json: voiceWith(req.query.id!) }),
    );
    const client = createClient({ baseUrl: gated.url, token: "c", concurrency: cap });
    const calls = ids.map((id) => client.voices.get(id));
    await settled();
    // Concurrency 1 (or a cap that is not applied) fails here, without waiting for anything.
    expect(started.urls).toHaveLength(cap);
    await gated.until(() => gated!.held.length === cap);
    for (let answered = 1; answered <= ids.length - cap; answered++) {
      const oldest = gated.held[0]!;
      oldest.release();
      await calls[ids.indexOf(oldest.req.query.id!)];
      await settled();
      expect(started.urls).toHaveLength(cap + answered);
      await gated.until(() => gated!.held.length === cap);
    }
    gated.open();
    expect((await Promise.all(calls)).map((v) => v.id)).toEqual(ids);
    expect(gated.requests).toHaveLength(ids.length);
  });
});

describe("throttling slows the whole client", () => {
  it("a 429 halves how many requests the client has in flight; the throttled request keeps its slot through Retry-After", async () => {
    const firstId = randomUUID();
    const events: RequestLogEvent[] = [];
    const { opened: wasThrottled, open: throttled } = gate();
    let answered429 = false;
    gated = await startGatedServer(
      (req) => {
        if (req.query.id !== firstId || answered429) return "hold";
        answered429 = true;
        return { status: 429, headers: { "retry-after": "1" }, json: { detail: "slow down" } };
      },
      (req) => ({ json: voiceWith(req.query.id!) }),
    );
    const client = createClient({
      baseUrl: gated.url,
      token: "c",
      concurrency: 8,
      onRequest: (e) => {
        events.push(e);
        if (e.event === "retry" && e.status === 429) throttled();
      },
    });
    const first = client.voices.get(firstId);
    // The retry is decided (and the limit halved) when the 429 is read, before the wait begins.
    await wasThrottled;
    expect(events.map((e) => [e.event, e.status, e.delayMs])).toEqual([["retry", 429, 1000]]);
    const ids: string[] = Array.from({ length: 12 }, () => randomUUID());
    const calls = ids.map((id) => client.voices.get(id));
    await settled();
    const others = () => started.urls.filter((u) => !u.includes(firstId)).length;
    // 8 halved to 4, one of them still held by the throttled request: 3 (unthrottled: 7).
    expect(others()).toBe(3);
    await gated.until(() => gated!.held.filter((h) => h.req.query.id !== firstId).length === 3);
    const one = gated.held.find((h) => h.req.query.id !== firstId)!;
    one.release();
    await calls[ids.indexOf(one.req.query.id!)];
    await settled();
    expect(others()).toBe(4);
    // The throttled request is sent again once its Retry-After has passed; answer everything.
    gated.open();
    expect((await first).id).toBe(firstId);
    expect((await Promise.all(calls)).map((v) => v.id)).toEqual(ids);
  });

  it("the limiter halves concurrency once per burst of 429s and wins it back one step per window of successes", () => {
    let now = 1_000;
    const t = new Throttle({ concurrency: 8, now: () => now });
    t.onRateLimited(0);
    now += 99;
    t.onRateLimited(0);
    expect(t.concurrency).toBe(4);
    for (let i = 0; i < 4; i++) t.onSuccess();
    expect(t.concurrency).toBe(5);
    now += 1;
    t.onRateLimited(0);
    expect(t.concurrency).toBe(2);
    // 429s while a Retry-After of 2 s runs belong to the same burst; the first one after it does not.
    now += 1_999;
    t.onRateLimited(2_000);
    expect(t.concurrency).toBe(2);
    now += 1;
    t.onRateLimited(2_000);
    expect(t.concurrency).toBe(1);
    for (let i = 0; i < 100; i++) t.onSuccess();
    expect(t.concurrency).toBe(8);
  });

  it("backoff doubles per retry up to maxDelayMs, jittered within the upper half", async () => {
    const delays: number[] = [];
    let failures = 4;
    server = await startRecordingServer((req) =>
      failures-- > 0 ? { status: 503, json: { detail: "busy" } } : { json: voiceWith(req.query.id!) },
    );
    const client = createClient({
      baseUrl: server.url,
      token: "c",
      retry: { baseDelayMs: 8, maxDelayMs: 32 },
      onRequest: (e) => e.event === "retry" && delays.push(e.delayMs!),
    });
    await client.voices.get(randomUUID());
    expect(delays).toHaveLength(4);
    [
      [4, 8],
      [8, 16],
      [16, 32],
      [16, 32],
    ].forEach(([lo, hi], i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(lo!);
      expect(delays[i]).toBeLessThanOrEqual(hi!);
    });
  });

  it("the budget bounds the time one operation spends retrying, on the client's clock", async () => {
    // Each attempt costs 100 ms on the injected clock; a budget of 450 ms allows 4 retries, not 50.
    let now = 0;
    server = await startRecordingServer(() => {
      now += 100;
      return { status: 503, json: { detail: "down" } };
    });
    const delays: number[] = [];
    const client = createClient({
      baseUrl: server.url,
      token: "c",
      now: () => now,
      retry: { baseDelayMs: 1, maxDelayMs: 1, limit: 50, budgetMs: 450 },
      onRequest: (e) => e.event === "retry" && delays.push(e.delayMs!),
    });
    await expect(client.voices.get(randomUUID())).rejects.toMatchObject({ status: 503, attempts: 5 });
    expect(server.requests).toHaveLength(5);
    expect(delays).toEqual([1, 1, 1, 1]);
  });
});
