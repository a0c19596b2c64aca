import { afterEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { holdDelays } from "../helpers/held-delays.js";

let emu: RunningEmulator;
afterEach(async () => emu?.close());
const TOKEN = "fault-token";
const get = (path: string, token = TOKEN) =>
  fetch(`${emu.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

describe("fault injection", () => {
  it("answers the configured status for the next N requests, then recovers", async () => {
    emu = await startEmulator({
      tokens: [TOKEN],
      seed: true,
      faults: [{ route: "/v1/voices/list", status: 503, count: 2 }],
    });
    expect((await get("/v1/voices/list")).status).toBe(503);
    expect((await get("/v1/voices/list")).status).toBe(503);
    expect((await get("/v1/voices/list")).status).toBe(200);
    expect((await get("/v1/numbers/list")).status).toBe(200);
  });

  it("a rule with skip lets that many matching requests through, then acts", async () => {
    emu = await startEmulator({
      tokens: [TOKEN],
      seed: true,
      faults: [{ route: "/v1/voices/list", status: 429, skip: 1, count: 2 }],
    });
    expect((await get("/v1/numbers/list")).status).toBe(200);
    expect((await get("/v1/voices/list")).status).toBe(200);
    expect((await get("/v1/voices/list")).status).toBe(429);
    expect((await get("/v1/voices/list")).status).toBe(429);
    expect((await get("/v1/voices/list")).status).toBe(200);
  });

  it("a rule with a host fails only the requests that name that host: one server, two loopback names", async () => {
    emu = await startEmulator({
      tokens: [TOKEN],
      seed: true,
      faults: [{ route: "/v1/voices/list", status: 503, host: "localhost" }],
    });
    const viaLocalhost = await fetch(`${emu.url.replace("127.0.0.1", "localhost")}/v1/voices/list`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(viaLocalhost.status).toBe(503);
    expect((await get("/v1/voices/list")).status).toBe(200);
  });

  it("adds 429 with Retry-After at run time through the admin endpoint, which needs a token", async () => {
    emu = await startEmulator({ tokens: [TOKEN], seed: true });
    const rule = { route: "/v1/agents*", status: 429, retryAfterSeconds: 7, count: 1 };
    const anon = await fetch(`${emu.url}/admin/faults`, {
      method: "POST",
      body: JSON.stringify(rule),
      headers: { "content-type": "application/json" },
    });
    expect(anon.status).toBe(401);
    const added = await fetch(`${emu.url}/admin/faults`, {
      method: "POST",
      body: JSON.stringify(rule),
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
    });
    expect(added.status).toBe(200);
    const limited = await get("/v1/agents/list");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(await limited.json()).toEqual({ detail: "Injected fault: 429" });
    expect((await get("/v1/agents/list")).status).toBe(200);
    const bad = await fetch(`${emu.url}/admin/faults`, {
      method: "POST",
      body: JSON.stringify({ route: "*" }),
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
    });
    expect(bad.status).toBe(422);
  });

  it("resets the connection and adds latency", async () => {
    emu = await startEmulator({
      tokens: [TOKEN],
      seed: true,
      faults: [
        { route: "/v1/calls/list", reset: true, count: 1 },
        { route: "/v1/webhooks/list", latencyMs: 150 },
      ],
    });
    await expect(get("/v1/calls/list")).rejects.toThrow();
    expect((await get("/v1/calls/list")).status).toBe(200);
    // Proven by order, not by the clock: the slow reply waits on its latency while a request
    // sent after it is answered, and arrives once the latency ends.
    const held = holdDelays(emu.faults);
    const slow = get("/v1/webhooks/list");
    await Promise.race([
      held.untilHolding(1),
      slow.then(() => Promise.reject(new Error("answered without waiting on its latency"))),
    ]);
    expect(held.asked).toEqual([{ ms: 150, method: "GET", path: "/v1/webhooks/list" }]);
    expect((await get("/v1/voices/list")).status).toBe(200);
    expect(held.holding).toBe(1);
    held.release();
    expect((await slow).status).toBe(200);
  });

  it("fires at a rate: 0 never, 1 always", async () => {
    emu = await startEmulator({
      tokens: [TOKEN],
      seed: true,
      faults: [
        { route: "/v1/voices/list", status: 500, rate: 0 },
        { route: "/v1/actions/list", status: 500, rate: 1 },
      ],
    });
    for (let i = 0; i < 5; i++) {
      expect((await get("/v1/voices/list")).status).toBe(200);
      expect((await get("/v1/actions/list")).status).toBe(500);
    }
  });

  it("counts the requests it received under /v1", async () => {
    emu = await startEmulator({ tokens: [TOKEN], seed: true });
    await get("/v1/voices/list");
    await get("/v1/voices/list", "wrong");
    const stats = await (await get("/admin/stats")).json();
    expect(stats).toEqual({
      total: 2,
      byRoute: { "GET /v1/voices/list": 2 },
      writes: {},
      faults: { before: {}, after: {} },
      rateLimited: {},
    });
  });
});

describe("items faults: a list page the client cannot wholly trust", () => {
  const numbers = async () => {
    const res = await get("/v1/numbers/list?page=1&size=100");
    expect(res.status).toBe(200);
    return (await res.json()) as { items: { id: string; number: string; user_id: unknown }[]; total: number };
  };

  it("set: the matching items carry the given fields, the others and every other route are as they were", async () => {
    emu = await startEmulator({ tokens: [TOKEN], seed: true });
    const clean = await numbers();
    const [first, ...rest] = clean.items;
    expect(first).toBeDefined();
    emu.faults.add({
      phase: "after",
      route: "/v1/numbers/list",
      items: { where: { number: `${first!.number.slice(0, 8)}*`, id: first!.id }, set: { user_id: 42 } },
    });
    const spoiled = await numbers();
    expect(spoiled.total).toBe(clean.total);
    expect(spoiled.items.find((n) => n.id === first!.id)?.user_id).toBe(42);
    for (const n of rest) expect(spoiled.items.find((s) => s.id === n.id)).toEqual(n);
    // A direct read of the same number is untouched: only list answers are spoiled.
    const direct = await get(`/v1/numbers?phone_number=${encodeURIComponent(first!.number)}`);
    expect(((await direct.json()) as { user_id: unknown }).user_id).toBe(first!.user_id);
  });

  it("omit: the matching items are left out of the page and of its total, as a lagging list would", async () => {
    emu = await startEmulator({ tokens: [TOKEN], seed: true, api: "2024" });
    const clean = await numbers();
    const gone = clean.items[0]!;
    emu.faults.add({ phase: "after", route: "/v1/numbers/list", items: { where: { id: gone.id }, omit: true } });
    const lagging = await numbers();
    expect(lagging.items.map((n) => n.id)).toEqual(clean.items.slice(1).map((n) => n.id));
    expect(lagging.total).toBe(clean.total - 1);
  });

  it("is refused before the work, or without exactly one of set and omit", async () => {
    emu = await startEmulator({ tokens: [TOKEN], seed: true });
    expect(() => emu.faults.add({ route: "/v1/numbers/list", items: { where: {}, omit: true } })).toThrow(
      /acts on an answer: give phase/,
    );
    expect(() => emu.faults.add({ phase: "after", route: "/v1/numbers/list", items: { where: {} } })).toThrow(
      /set or omit/,
    );
    expect(emu.faults.list()).toEqual([]);
  });
});

describe("items faults on a route that answers one object", () => {
  it("set spoils a create's answer, once the object is made; the list shows it as it is", async () => {
    emu = await startEmulator({ tokens: [TOKEN], seed: true });
    emu.faults.add({ phase: "after", route: "/v1/numbers/buy", count: 1, items: { where: {}, set: { user_id: 42 } } });
    const res = await fetch(`${emu.url}/v1/numbers/buy`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ area_code: "646" }),
    });
    expect(res.status).toBe(200);
    const answered = (await res.json()) as { id: string; number: string; user_id: unknown };
    expect(answered.user_id).toBe(42);
    expect(answered.number).toMatch(/^\+1646/);
    const listed = (await (await get("/v1/numbers/list?page=1&size=100")).json()) as {
      items: { id: string; user_id: unknown }[];
    };
    expect(typeof listed.items.find((n) => n.id === answered.id)?.user_id).toBe("string");
    expect(emu.stats.writes["POST /v1/numbers/buy"]).toBe(1);
  });
});
