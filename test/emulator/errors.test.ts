import { Writable } from "node:stream";
import { beforeEach, describe, expect, it } from "vitest";
import { endpoints } from "pulumi-voiceagent/schemas";
import { testEmulator, type TestEmulator } from "../helpers/emulator.js";

let t: TestEmulator;
let voice: string;
let agent: string;
beforeEach(async () => {
  t = await testEmulator();
  voice = t.emu.seeds.get(t.tokenA)!.voices[0]!;
  agent = (await t.call("POST", "/v1/agents/create", { prompt: "p", voice })).json.id;
});

// Each case: one invalid field, and the loc the 422 must name.
const invalidFields: [string, string, () => unknown, (string | number)[]][] = [
  ["agents/create prompt missing", "/v1/agents/create", () => ({ voice }), ["body", "prompt"]],
  ["agents/create prompt wrong type", "/v1/agents/create", () => ({ prompt: 5, voice }), ["body", "prompt"]],
  ["agents/create voice missing", "/v1/agents/create", () => ({ prompt: "p" }), ["body", "voice"]],
  ["agents/create voice not a UUID", "/v1/agents/create", () => ({ prompt: "p", voice: "v-1" }), ["body", "voice"]],
  [
    "agents/create actions item not a UUID",
    "/v1/agents/create",
    () => ({ prompt: "p", voice, actions: ["x"] }),
    ["body", "actions", 0],
  ],
  [
    "agents/create actions not an array",
    "/v1/agents/create",
    () => ({ prompt: "p", voice, actions: "x" }),
    ["body", "actions"],
  ],
  [
    "agents/create webhook not a UUID",
    "/v1/agents/create",
    () => ({ prompt: "p", voice, webhook: 1 }),
    ["body", "webhook"],
  ],
  [
    "agents/create initial_message wrong type",
    "/v1/agents/create",
    () => ({ prompt: "p", voice, initial_message: [] }),
    ["body", "initial_message"],
  ],
  ["agents/update voice not a UUID", "/v1/agents/update?id=AGENT", () => ({ voice: "nope" }), ["body", "voice"]],
  ["agents/update id not a UUID", "/v1/agents/update?id=abc", () => ({ prompt: "p" }), ["query", "id"]],
  [
    "numbers/update inbound_agent not a UUID",
    "/v1/numbers/update?phone_number=%2B15550010001",
    () => ({ inbound_agent: "a" }),
    ["body", "inbound_agent"],
  ],
  [
    "numbers/update inbound_agent missing",
    "/v1/numbers/update?phone_number=%2B15550010001",
    () => ({}),
    ["body", "inbound_agent"],
  ],
  [
    "numbers/update phone_number not E.164",
    "/v1/numbers/update?phone_number=5550010001",
    () => ({ inbound_agent: null }),
    ["query", "phone_number"],
  ],
  [
    "calls/create from_number not E.164",
    "/v1/calls/create",
    () => ({ from_number: "555", to_number: "+15550000001", agent }),
    ["body", "from_number"],
  ],
  [
    "calls/create to_number missing",
    "/v1/calls/create",
    () => ({ from_number: "+15550010001", agent }),
    ["body", "to_number"],
  ],
  [
    "calls/create agent not a UUID",
    "/v1/calls/create",
    () => ({ from_number: "+15550010001", to_number: "+15550000001", agent: "x" }),
    ["body", "agent"],
  ],
  [
    "voices/update pitch not an integer",
    "/v1/voices/update?id=VOICE",
    () => ({ voice_name: "n", pitch: 1.5, rate: 1 }),
    ["body", "pitch"],
  ],
  [
    "voices/update rate wrong type",
    "/v1/voices/update?id=VOICE",
    () => ({ voice_name: "n", pitch: 1, rate: "1" }),
    ["body", "rate"],
  ],
  [
    "voices/update unknown type",
    "/v1/voices/update?id=VOICE",
    () => ({ type: "voice_robot", voice_name: "n", pitch: 1, rate: 1 }),
    ["body", "type"],
  ],
  [
    "voices/update voice_name empty",
    "/v1/voices/update?id=VOICE",
    () => ({ voice_name: "", pitch: 1, rate: 1 }),
    ["body", "voice_name"],
  ],
  [
    "webhooks/create unknown method",
    "/v1/webhooks/create",
    () => ({ url: "https://x.example", method: "PUT", subscriptions: ["event_message"] }),
    ["body", "method"],
  ],
  [
    "webhooks/create unknown event",
    "/v1/webhooks/create",
    () => ({ url: "https://x.example", subscriptions: ["event_party"] }),
    ["body", "subscriptions", 0],
  ],
  [
    "webhooks/create url not http(s)",
    "/v1/webhooks/create",
    () => ({ url: "ftp://x.example", subscriptions: ["event_message"] }),
    ["body", "url"],
  ],
  ["actions/create unknown type", "/v1/actions/create", () => ({ type: "action_dance" }), ["body", "type"]],
  [
    "actions/create config.phone_number not E.164",
    "/v1/actions/create",
    () => ({ config: { phone_number: "12" } }),
    ["body", "config", "phone_number"],
  ],
  ["numbers/buy area_code malformed", "/v1/numbers/buy", () => ({ area_code: "12" }), ["body", "area_code"]],
];

describe("422 for each invalid field, FastAPI style, and nothing changes", () => {
  it.each(invalidFields)("%s", async (_name, url, body, loc) => {
    const before = JSON.stringify(t.emu.store.db.prepare("SELECT kind, id, data FROM objects ORDER BY kind, id").all());
    const res = await t.call("POST", url.replace("AGENT", agent).replace("VOICE", voice), body());
    expect(res.status).toBe(422);
    expect(res.json.detail).toContainEqual(
      expect.objectContaining({ loc, msg: expect.any(String), type: expect.any(String) }),
    );
    const after = JSON.stringify(t.emu.store.db.prepare("SELECT kind, id, data FROM objects ORDER BY kind, id").all());
    expect(after).toBe(before);
  });

  it("a missing field says 'Field required' with type 'missing'", async () => {
    const res = await t.call("POST", "/v1/agents/create", { voice });
    expect(res.json.detail).toEqual([{ loc: ["body", "prompt"], msg: "Field required", type: "missing" }]);
  });
});

describe("HTTP edges never answer 500", () => {
  it("unknown route 404, wrong method 405 with Allow", async () => {
    const missing = await t.call("GET", "/v1/planets");
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ detail: "Not Found" });
    const wrong = await t.emu.app.inject({ method: "GET", url: "/v1/agents/create", headers: t.auth() });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe("POST");
    expect((await t.emu.app.inject({ method: "DELETE", url: "/v1/agents/", headers: t.auth() })).statusCode).toBe(405);
  });

  it("a body over 1 MiB is 413; malformed JSON is 400; a non-JSON type is 415", async () => {
    const big = await t.emu.app.inject({
      method: "POST",
      url: "/v1/agents/create",
      headers: { ...t.auth(), "content-type": "application/json" },
      payload: JSON.stringify({ prompt: "x".repeat(1024 * 1024 + 10), voice }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ detail: expect.stringMatching(/large|size|limit/i) });
    const bad = await t.emu.app.inject({
      method: "POST",
      url: "/v1/agents/create",
      headers: { ...t.auth(), "content-type": "application/json" },
      payload: '{"prompt": "p", "voice": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: expect.stringMatching(/\bJSON\b/) });
    const text = await t.emu.app.inject({
      method: "POST",
      url: "/v1/agents/create",
      headers: { ...t.auth(), "content-type": "text/plain" },
      payload: "hello",
    });
    expect(text.statusCode).toBe(415);
  });

  it("every response carries X-Request-Id, echoing a well-formed one the client sent", async () => {
    const ok = await t.emu.app.inject({ method: "GET", url: "/v1/voices/list", headers: t.auth() });
    const unauth = await t.emu.app.inject({ method: "GET", url: "/v1/voices/list" });
    const nf = await t.emu.app.inject({ method: "GET", url: "/nowhere", headers: t.auth() });
    for (const r of [ok, unauth, nf]) expect(r.headers["x-request-id"]).toMatch(/^[\w-]{8,}$/);
    expect(ok.headers["x-request-id"]).not.toBe(unauth.headers["x-request-id"]);
    const echoed = await t.emu.app.inject({
      method: "GET",
      url: "/v1/voices/list",
      headers: { ...t.auth(), "x-request-id": "trace-123" },
    });
    expect(echoed.headers["x-request-id"]).toBe("trace-123");
  });
});

describe("OpenAPI and logging", () => {
  it("serves an OpenAPI 3 document with every endpoint", async () => {
    const doc = (await t.emu.app.inject({ method: "GET", url: "/openapi.json" })).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const ep of Object.values(endpoints)) {
      expect(doc.paths[ep.path]?.[ep.method.toLowerCase()], `${ep.method} ${ep.path}`).toBeDefined();
    }
    expect(JSON.stringify(doc.paths["/v1/agents/create"].post.requestBody)).toContain("prompt");
  });

  it("the request log never holds the token", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const logged = await testEmulator({ logger: { level: "info", stream } });
    await logged.call("GET", "/v1/voices/list");
    await logged.call("POST", "/v1/agents/create", { prompt: "p", voice: "bad" });
    await logged.emu.app.inject({
      method: "GET",
      url: "/v1/voices/list",
      headers: { authorization: `Bearer ${logged.tokenA}x` },
    });
    const text = lines.join("");
    expect(text).toContain("/v1/voices/list");
    expect(text).not.toContain(logged.tokenA);
  });
});
