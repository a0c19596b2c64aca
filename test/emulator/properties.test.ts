// Property-based: whatever a client sends to any endpoint, the emulator never answers 500.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { collections, currentOnlyRoutes, type EndpointDef, endpoints } from "pulumi-voiceagent/schemas";
import { testEmulator, type TestEmulator } from "../helpers/emulator.js";

let t: TestEmulator;
let ids: string[];
/** The emulator speaking the current API (2024), and ids of each of its kinds. */
let t24: TestEmulator;
let ids24: string[];
beforeAll(async () => {
  t = await testEmulator();
  const seed = t.emu.seeds.get(t.tokenA)!;
  const agent = (await t.call("POST", "/v1/agents/create", { prompt: "p", voice: seed.voices[0] })).json.id as string;
  ids = [...seed.voices, ...seed.actions, ...seed.webhooks, agent];
  t24 = await testEmulator({ api: "2024" });
  const s24 = t24.emu.seeds.get(t24.tokenA)!;
  const made = await Promise.all([
    t24.call("POST", "/v1/prompts/create", { content: "p" }),
    t24.call("POST", "/v1/account_connections/create", {
      type: "account_connection_twilio",
      credentials: { twilio_account_sid: "AC1", twilio_auth_token: "t" },
    }),
    t24.call("POST", "/v1/account_connections/create", {
      type: "account_connection_openai",
      credentials: { openai_api_key: "k" },
    }),
    t24.call("POST", "/v1/vector_databases/create", { index: "i", api_key: "k", api_environment: "e" }),
    t24.call("POST", "/v1/agents/create", { prompt: "p", voice: s24.voices[0] }),
  ]);
  ids24 = [...s24.voices, ...s24.actions, ...s24.webhooks, ...made.map((m) => m.json.id as string)];
});

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const fieldNames = fc.constantFrom(
  "prompt",
  "voice",
  "actions",
  "initial_message",
  "webhook",
  "inbound_agent",
  "from_number",
  "to_number",
  "agent",
  "type",
  "voice_name",
  "pitch",
  "rate",
  "config",
  "url",
  "method",
  "subscriptions",
  "area_code",
  "__proto__",
  "constructor",
);
/** The current API's own field names (2024), besides the interface's. */
const fieldNames24 = fc.oneof(
  fieldNames,
  fc.constantFrom(
    "content",
    "collect_fields",
    "context_endpoint",
    "prompt_template",
    "credentials",
    "steering_pool",
    "phone_number",
    "telephony_account_connection",
    "telephony_provider",
    "outbound_only",
    "label",
    "example_context",
    "index",
    "api_key",
    "api_environment",
    "language",
    "vector_database",
    "openai_account_connection",
    "llm_fallback",
    "deepgram_keywords",
    "on_no_human_answer",
    "context",
  ),
);

describe("no input makes a 500", () => {
  it("random bodies, queries and content types against every endpoint", async () => {
    const routes = Object.values(endpoints);
    const body = fc.oneof(
      fc.dictionary(
        fieldNames,
        fc.oneof(jsonValue, fc.constantFrom(...(ids.length ? ids : ["x"])), fc.constant("+15550010001")),
      ),
      jsonValue,
      fc.string(),
    );
    const query = fc.record({
      id: fc.oneof(fc.uuid(), fc.constantFrom(...ids), fc.string()),
      phone_number: fc.oneof(fc.constantFrom("+15550010001", "+15550010002", "%2B1", ""), fc.string()),
      page: fc.oneof(fc.integer({ min: -5, max: 1000 }).map(String), fc.string()),
      size: fc.oneof(fc.integer({ min: -5, max: 1000 }).map(String), fc.string()),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        body,
        query,
        fc.boolean(),
        fc.boolean(),
        async (ep, b, q, asJson, asText) => {
          const qs = new URLSearchParams(q as Record<string, string>).toString();
          const res = await t.emu.app.inject({
            method: ep.method,
            url: `${ep.path}?${qs}`,
            headers: { ...t.auth(), ...(asJson ? { "content-type": "application/json" } : {}) },
            ...(ep.method === "POST" ? { payload: asText && typeof b === "string" ? b : JSON.stringify(b) } : {}),
          });
          expect(res.statusCode, `${ep.method} ${ep.path}?${qs} -> ${res.body}`).toBeLessThan(500);
          expect(() => JSON.parse(res.body)).not.toThrow();
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe("no input makes a 500 on the current API (2024)", () => {
  it("random bodies and queries against every route, those only the current API has included", async () => {
    const routes: EndpointDef[] = [
      ...Object.values(endpoints),
      ...Object.values(collections)
        .filter((c) => c.generation === "2024")
        .flatMap((c) => Object.values(c.routes)),
      ...Object.values(currentOnlyRoutes),
    ];
    const value = fc.oneof(jsonValue, fc.constantFrom(...ids24), fc.constant("+15550010001"));
    const body = fc.oneof(fc.dictionary(fieldNames24, fc.oneof(value, fc.dictionary(fieldNames24, value))), jsonValue);
    const query = fc.record({
      id: fc.oneof(fc.uuid(), fc.constantFrom(...ids24), fc.string()),
      phone_number: fc.oneof(fc.constantFrom("+15550010001", "+15550010002"), fc.string()),
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), body, query, async (ep, b, q) => {
        const qs = new URLSearchParams(q).toString();
        const res = await t24.emu.app.inject({
          method: ep.method,
          url: `${ep.path}?${qs}`,
          headers: { ...t24.auth(), "content-type": "application/json" },
          ...(ep.method === "POST" ? { payload: JSON.stringify(b) } : {}),
        });
        expect(res.statusCode, `${ep.method} ${ep.path}?${qs} ${JSON.stringify(b)} -> ${res.body}`).toBeLessThan(500);
      }),
      { numRuns: 1500 },
    );
  });
});
