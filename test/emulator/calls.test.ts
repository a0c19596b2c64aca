// Calls that progress on the emulator's clock and the events they deliver to the agent's webhook
// (docs/emulator.md "Calls and events"), in process, on a test clock: nothing here sleeps.
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { CallEventSchema, CallEventsAnswerSchema } from "pulumi-voiceagent/schemas";
import { TestClock } from "voiceagent-emulator";
import { testEmulator, type TestEmulator } from "../helpers/emulator.js";
import { startRecordingServer, type Answer, type RecordingServer } from "../helpers/recording-server.js";

const STEP = 1000;
const CALLER = "+14155550199";
const ALL = [
  "event_phone_call_connected",
  "event_message",
  "event_transcript",
  "event_phone_call_ended",
  "event_phone_call_did_not_connect",
];

/** What a webhook subscribed to every event gets from a call of two lines (the opening message and one more). */
const TWO_LINE_CALL = [
  "event_phone_call_connected",
  "event_transcript",
  "event_message",
  "event_transcript",
  "event_message",
  "event_phone_call_ended",
];

const servers: RecordingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A receiver on 127.0.0.1:0 answering from `handler` (200 by default). */
async function receiver(handler: (n: number) => Answer | Promise<Answer> = () => ({ status: 200 })) {
  let n = 0;
  const s = await startRecordingServer(() => handler(++n));
  servers.push(s);
  return s;
}

/** The events a receiver got, parsed by the wire schema (a payload of another shape fails here). */
const eventsAt = (s: RecordingServer) => s.requests.map((r) => CallEventSchema.parse(JSON.parse(r.body)));

interface Bench {
  t: TestEmulator;
  clock: TestClock;
  log: string[];
}

async function bench(api: "2023" | "2024" = "2023", webhooks = {}): Promise<Bench> {
  const clock = new TestClock();
  const log: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      log.push(chunk.toString());
      done();
    },
  });
  const t = await testEmulator({
    api,
    calls: { clock, stepMs: STEP, webhooks: { timeoutMs: 300, backoffMs: 1000, ...webhooks } },
    logger: { level: "warn", stream },
  });
  return { t, clock, log };
}

/** An agent with a webhook to `url`, bound to the user's first seeded number; answers the number and the agent. */
async function boundAgent(
  t: TestEmulator,
  url: string,
  opts: { subscriptions?: string[]; method?: string; initial?: string | null; index?: number } = {},
) {
  const seed = t.emu.seeds.get(t.tokenA)!;
  const hook = await t.call("POST", "/v1/webhooks/create", {
    url,
    method: opts.method ?? "POST",
    subscriptions: opts.subscriptions ?? ALL,
  });
  expect(hook.status).toBe(200);
  const agent = await t.call("POST", "/v1/agents/create", {
    prompt: "You answer the clinic's line.",
    voice: seed.voices[0],
    actions: [],
    webhook: hook.json.id,
    ...(opts.initial === null ? {} : { initial_message: opts.initial ?? "Clinic, how can I help?" }),
  });
  expect(agent.status).toBe(200);
  const number = seed.numbers[opts.index ?? 0]!;
  const bound = await t.call("POST", `/v1/numbers/update?phone_number=${encodeURIComponent(number)}`, {
    inbound_agent: agent.json.id,
  });
  expect(bound.status).toBe(200);
  return { number, agent: agent.json.id as string, webhook: hook.json.id as string };
}

const ring = (t: TestEmulator, to: string, script?: unknown[]) =>
  t.call("POST", "/admin/calls/inbound", { to, from: CALLER, ...(script ? { script } : {}) });

describe("an inbound call to a bound number", () => {
  it(`is answered by the number's agent, moves through its stages on the clock, and delivers connected, each line and \
ended, in order, once each`, async () => {
    const { t, clock } = await bench();
    const r = await receiver();
    const { number, agent } = await boundAgent(t, `${r.url}/hooks`);
    const placed = await ring(t, number, ["I need to move my appointment."]);
    expect(placed.status).toBe(200);
    expect(placed.json).toMatchObject({ agent, phase: "ringing" });
    const id: string = placed.json.id;
    const read = async () => (await t.call("GET", `/v1/calls?id=${id}`)).json;

    // Read through the API as they change, one step of the clock at a time.
    expect(await read()).toMatchObject({ status: "not_started", transcript: null, agent: { id: agent } });
    clock.advance(STEP);
    expect(await read()).toMatchObject({
      status: "in_progress",
      transcript: null,
      to_number: number,
      from_number: CALLER,
    });
    clock.advance(STEP);
    expect((await read()).transcript).toBe("BOT: Clinic, how can I help?");
    clock.advance(STEP);
    expect((await read()).transcript).toBe("BOT: Clinic, how can I help?\nHUMAN: I need to move my appointment.");
    clock.advance(STEP);
    const ended = await read();
    expect(ended).toMatchObject({ status: "ended", recording_available: false });
    // The interface's call has none of the current API's fields.
    expect(ended).not.toHaveProperty("stage");
    expect(ended).not.toHaveProperty("start_time");

    await t.emu.calls!.settle();
    const got = eventsAt(r);
    expect(got.map((e) => e.type)).toEqual(TWO_LINE_CALL);
    expect(got.every((e) => e.conversation_id === id)).toBe(true);
    expect(got[0]).toEqual({
      type: "event_phone_call_connected",
      conversation_id: id,
      to_phone_number: number,
      from_phone_number: CALLER,
    });
    expect(got.slice(1, 5).map((e) => ("sender" in e ? `${e.sender}:${e.text}` : ""))).toEqual([
      "bot:Clinic, how can I help?",
      "bot:Clinic, how can I help?",
      "human:I need to move my appointment.",
      "human:I need to move my appointment.",
    ]);
    // Connected at 1 s, ended at 4 s: 3 s of conversation.
    expect(got[5]).toEqual({ type: "event_phone_call_ended", conversation_id: id, conversation_minutes: 0.05 });
    expect(r.requests.every((q) => q.method === "POST" && q.path === "/hooks")).toBe(true);
    expect(r.requests.every((q) => String(q.headers["content-type"]).startsWith("application/json"))).toBe(true);
    // Nothing of the account's secrets: no token, no prompt.
    for (const q of r.requests) {
      expect(q.body).not.toContain(t.tokenA);
      expect(q.body).not.toContain("You answer the clinic's line.");
      expect(q.headers.authorization).toBeUndefined();
    }
    const events = CallEventsAnswerSchema.parse((await t.call("GET", `/admin/calls/events?id=${id}`)).json);
    expect(events).toMatchObject({ id, agent, phase: "ended", settled: true });
    expect(events.events.map((e) => e.delivery?.state)).toEqual(Array(6).fill("delivered"));
    expect((await t.call("GET", "/admin/webhooks/deliveries")).json).toMatchObject({
      delivered: 6,
      failed_attempts: 0,
      dropped: 0,
    });
  });

  it("on the current API (2024), writes stage, stage_outcome and the times, and a list page gives the times as numbers", async () => {
    const { t, clock } = await bench("2024");
    const r = await receiver();
    const { number } = await boundAgent(t, r.url);
    const id: string = (await ring(t, number)).json.id;
    const read = async () => (await t.call("GET", `/v1/calls?id=${id}`)).json;
    expect(await read()).toMatchObject({ status: "not_started", agent_phone_number: number });
    expect(await read()).not.toHaveProperty("stage");
    clock.advance(STEP);
    const connected = await read();
    expect(connected).toMatchObject({ status: "in_progress", stage: "picked_up" });
    expect(Date.parse(connected.start_time)).toBe(clock.now());
    await t.emu.calls!.settle();
    const ended = await read();
    expect(ended).toMatchObject({ status: "ended", stage: "picked_up", stage_outcome: "human_disconnected" });
    expect(Date.parse(ended.end_time)).toBeGreaterThan(Date.parse(ended.start_time));
    const listed = (await t.call("GET", "/v1/calls/list")).json.items.find((c: { id: string }) => c.id === id);
    expect(listed.start_time).toBe(Date.parse(ended.start_time) / 1000);
    expect(listed.end_time).toBe(Date.parse(ended.end_time) / 1000);
    // The default script: the caller says one line after the agent's opening message.
    expect(eventsAt(r).filter((e) => e.type === "event_message")).toHaveLength(2);
  });

  it("a webhook subscribed to fewer events gets only those; with GET it is sent with GET, still as JSON", async () => {
    const { t } = await bench();
    const r = await receiver();
    const { number } = await boundAgent(t, r.url, {
      subscriptions: ["event_phone_call_ended", "event_transcript"],
      method: "GET",
    });
    await ring(t, number, ["one", "two"]);
    await t.emu.calls!.settle();
    expect(eventsAt(r).map((e) => e.type)).toEqual([
      "event_transcript",
      "event_transcript",
      "event_transcript",
      "event_phone_call_ended",
    ]);
    expect(r.requests.every((q) => q.method === "GET")).toBe(true);
  });
});

describe("delivery failures", () => {
  it(`a receiver answering 500 twice gets the event on the third try, after backoff on the clock, and /admin and the log \
show the failures`, async () => {
    const { t, log } = await bench();
    const r = await receiver((n) => ({ status: n <= 2 ? 500 : 200 }));
    const { number } = await boundAgent(t, `${r.url}/hooks?key=receiver-secret-123`, {
      subscriptions: ["event_phone_call_connected"],
    });
    const id: string = (await ring(t, number)).json.id;
    await t.emu.calls!.settle();
    expect(r.requests).toHaveLength(3);
    expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
    const events = (await t.call("GET", `/admin/calls/events?id=${id}`)).json;
    expect(events.events[0].delivery).toEqual({
      webhook: expect.any(String),
      state: "delivered",
      attempts: 3,
      last_failure: "500",
    });
    const deliveries = (await t.call("GET", "/admin/webhooks/deliveries")).json;
    expect(deliveries).toMatchObject({ delivered: 1, failed_attempts: 2, dropped: 0 });
    expect(deliveries.failures).toMatchObject([
      { call: id, event: "event_phone_call_connected", attempt: 1, failure: "500", next: "retry" },
      { call: id, event: "event_phone_call_connected", attempt: 2, failure: "500", next: "retry" },
    ]);
    // Backoff on the emulator's clock: 1 s after the first failure, 2 s after the second.
    expect(deliveries.failures.map((f: { retry_in_ms: number }) => f.retry_in_ms)).toEqual([1000, 2000]);
    // The receiver's query string (where a receiver keeps its key) is never shown or logged.
    expect(deliveries.failures[0].target).toBe(`${r.url}/hooks`);
    expect(JSON.stringify(deliveries)).not.toContain("receiver-secret-123");
    // Another account sees the counters, not this account's failures.
    expect((await t.call("GET", "/admin/webhooks/deliveries", undefined, t.tokenB)).json.failures).toEqual([]);
    expect(log.join("")).toContain("webhook delivery failed (500); retrying");
    expect(log.join("")).not.toContain("receiver-secret-123");
    expect(log.join("")).not.toContain(t.tokenA);
  });

  it(`a receiver that never answers does not stall the emulator or other calls; its events are dropped after the last \
attempt and counted`, async () => {
    const { t, log } = await bench("2023", { maxAttempts: 2, timeoutMs: 1000 });
    const hung = await receiver(() => new Promise<Answer>(() => {}));
    // What the emulator had done when the other call's last event arrived.
    let hungAtLastGoodEvent = -1;
    let droppedThen = -1;
    let answeredMeanwhile = -1;
    const good = await startRecordingServer(async (req) => {
      if (JSON.parse(req.body).type === "event_phone_call_ended") {
        hungAtLastGoodEvent = hung.requests.length;
        droppedThen = t.emu.calls!.deliveries.counts.dropped;
        // The emulator answers while a delivery hangs.
        answeredMeanwhile = (await t.call("GET", "/v1/calls/list")).status;
      }
      return { status: 200 };
    });
    servers.push(good);
    const slow = await boundAgent(t, hung.url, {
      subscriptions: ["event_phone_call_connected", "event_phone_call_ended"],
    });
    const fine = await boundAgent(t, good.url, { index: 1 });
    const stuck: string = (await ring(t, slow.number)).json.id;
    await ring(t, fine.number);
    await t.emu.calls!.settle();
    // The other call's events all arrived while the hung receiver held its first request.
    expect(hungAtLastGoodEvent).toBe(1);
    expect(droppedThen).toBe(0);
    expect(answeredMeanwhile).toBe(200);
    expect(eventsAt(good).map((e) => e.type)).toEqual(TWO_LINE_CALL);
    // Each of the two subscribed events was tried twice, then dropped; the events still went in order.
    expect(hung.requests.map((q) => JSON.parse(q.body).type)).toEqual([
      "event_phone_call_connected",
      "event_phone_call_connected",
      "event_phone_call_ended",
      "event_phone_call_ended",
    ]);
    const events = (await t.call("GET", `/admin/calls/events?id=${stuck}`)).json;
    expect(events.settled).toBe(true);
    expect(
      events.events.filter((e: { delivery: unknown }) => e.delivery).map((e: { delivery: unknown }) => e.delivery),
    ).toEqual([
      { webhook: slow.webhook, state: "dropped", attempts: 2, last_failure: "timeout" },
      { webhook: slow.webhook, state: "dropped", attempts: 2, last_failure: "timeout" },
    ]);
    expect((await t.call("GET", "/admin/webhooks/deliveries")).json).toMatchObject({ dropped: 2, failed_attempts: 4 });
    expect(log.join("")).toContain("webhook delivery failed (timeout); event dropped");
  });
});

describe("numbers that do not answer", () => {
  it(`an outbound-only number (current API), a number bound to no agent and a cancelled number refuse the call: 409 \
naming why, no call, no event`, async () => {
    const { t } = await bench("2024");
    const r = await receiver();
    const seed = t.emu.seeds.get(t.tokenA)!;
    const { number } = await boundAgent(t, r.url);
    const q = (n: string) => `/v1/numbers/update?phone_number=${encodeURIComponent(n)}`;
    expect((await t.call("POST", q(number), { outbound_only: true })).status).toBe(200);
    const outbound = await ring(t, number);
    expect(outbound.status).toBe(409);
    expect(outbound.json.detail).toContain("outbound_only");

    const unbound = await ring(t, seed.numbers[2]!);
    expect(unbound.status).toBe(409);
    expect(unbound.json.detail).toContain("no_inbound_agent");

    const { number: other } = await boundAgent(t, r.url, { index: 1 });
    expect((await t.call("POST", `/v1/numbers/cancel?phone_number=${encodeURIComponent(other)}`)).status).toBe(200);
    const cancelled = await ring(t, other);
    expect(cancelled.status).toBe(409);
    expect(cancelled.json.detail).toContain("number_cancelled");

    const notMine = await ring(t, t.emu.seeds.get(t.tokenB)!.numbers[0]!);
    expect(notMine.status).toBe(404);

    await t.emu.calls!.settle();
    expect((await t.call("GET", "/v1/calls/list")).json.total).toBe(0);
    expect(r.requests).toHaveLength(0);
  });

  it("without `calls`, the admin API says how to turn calls on", async () => {
    const t = await testEmulator();
    const res = await t.call("POST", "/admin/calls/inbound", { to: "+15550010001", from: CALLER });
    expect(res.status).toBe(409);
    expect(res.json.detail).toContain("--calls");
  });
});

describe("outbound calls and calls/end", () => {
  it("an outbound call made through the API progresses; a callee told not to answer does not connect", async () => {
    const { t } = await bench("2024");
    const r = await receiver();
    const { number, agent } = await boundAgent(t, r.url);
    const answered = await t.call("POST", "/v1/calls/create", {
      from_number: number,
      to_number: "+14155550111",
      agent,
    });
    expect(answered.status).toBe(200);
    expect(
      (
        await t.call("POST", "/admin/calls/callees", {
          number: "+14155550112",
          answers: false,
          telephony_status: "busy",
        })
      ).status,
    ).toBe(200);
    const missed = await t.call("POST", "/v1/calls/create", { from_number: number, to_number: "+14155550112", agent });
    await t.emu.calls!.settle();
    expect((await t.call("GET", `/v1/calls?id=${answered.json.id}`)).json).toMatchObject({
      status: "ended",
      stage_outcome: "human_disconnected",
      agent_phone_number: number,
    });
    expect((await t.call("GET", `/v1/calls?id=${missed.json.id}`)).json).toMatchObject({
      status: "error",
      stage: "created",
      stage_outcome: "call_did_not_connect",
      error_message: "the call did not connect (busy)",
    });
    const forMissed = eventsAt(r).filter((e) => e.conversation_id === missed.json.id);
    expect(forMissed).toEqual([
      { type: "event_phone_call_did_not_connect", conversation_id: missed.json.id, telephony_status: "busy" },
    ]);
  });

  it("calls/end hangs a connected call up at its next step: ended once, the agent's side disconnected", async () => {
    const { t, clock } = await bench("2024");
    const r = await receiver();
    const { number } = await boundAgent(t, r.url);
    const id: string = (await ring(t, number, ["a", "b", "c"])).json.id;
    clock.advance(STEP * 2);
    expect((await t.call("POST", `/v1/calls/end?id=${id}`)).status).toBe(200);
    await t.emu.calls!.settle();
    expect((await t.call("GET", `/v1/calls?id=${id}`)).json).toMatchObject({
      status: "ended",
      stage_outcome: "bot_disconnected",
    });
    const types = eventsAt(r).map((e) => e.type);
    expect(types.filter((e) => e === "event_phone_call_ended")).toHaveLength(1);
    expect(types.at(-1)).toBe("event_phone_call_ended");
    // Only the opening message was said before the hang-up.
    expect(types.filter((e) => e === "event_message")).toHaveLength(1);
  });

  it("binding the number to another agent changes which agent answers the next call", async () => {
    const { t } = await bench();
    const r = await receiver();
    const first = await boundAgent(t, r.url);
    const second = await boundAgent(t, r.url, { initial: "Second agent here." });
    expect(second.number).toBe(first.number);
    const placed = await ring(t, first.number);
    expect(placed.json.agent).toBe(second.agent);
    expect((await t.call("GET", `/v1/calls?id=${placed.json.id}`)).json.agent.id).toBe(second.agent);
  });
});

describe("closing", () => {
  it("stops every call and retry: nothing runs on the closed store afterwards", async () => {
    const { t, clock } = await bench();
    const r = await receiver();
    const { number } = await boundAgent(t, r.url, { subscriptions: ["event_phone_call_ended"] });
    await ring(t, number);
    await ring(t, number);
    clock.advance(STEP);
    expect(clock.pending).toBe(2);
    await t.emu.app.close();
    expect(clock.pending).toBe(0);
    // A step left set would read the closed store here and throw.
    expect(() => clock.advance(60_000)).not.toThrow();
  });
});

describe("load", () => {
  it("100 concurrent inbound calls with webhooks complete with every event delivered once", async () => {
    // A timeout long enough that no attempt is cut off while the receiver answers the others: an
    // attempt cut off after the receiver got it is retried, and then delivered twice (at least once).
    const { t } = await bench("2023", { timeoutMs: 60_000 });
    const r = await receiver();
    const numbers = t.emu.addNumbers(t.tokenA, { count: 100, prefix: "+1555888" }).numbers;
    const { agent } = await boundAgent(t, r.url);
    for (const n of numbers) {
      await t.call("POST", `/v1/numbers/update?phone_number=${encodeURIComponent(n)}`, { inbound_agent: agent });
    }
    const placed = await Promise.all(numbers.map((n) => ring(t, n, ["hi"])));
    expect(placed.every((p) => p.status === 200)).toBe(true);
    await t.emu.calls!.settle();
    const got = eventsAt(r);
    // Per call: connected, two lines under two names, ended.
    expect(got).toHaveLength(100 * 6);
    const keys = got.map((e) => `${e.conversation_id} ${e.type} ${"text" in e ? e.text : ""}`);
    expect(new Set(keys).size).toBe(100 * 6);
    for (const p of placed) {
      const mine = got.filter((e) => e.conversation_id === p.json.id).map((e) => e.type);
      expect(mine).toEqual(TWO_LINE_CALL);
    }
    expect((await t.call("GET", "/admin/webhooks/deliveries")).json).toMatchObject({
      delivered: 600,
      failed_attempts: 0,
      dropped: 0,
      calls: { ended: 100, ringing: 0, connected: 0 },
    });
  });
});
