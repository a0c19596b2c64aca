// Property-based: whatever a client sends to any endpoint, the emulator never answers 500.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "pulumi-voiceagent/schemas";
import { testEmulator, type TestEmulator } from "../helpers/emulator.js";

let t: TestEmulator;
let ids: string[];
beforeAll(async () => {
  t = await testEmulator();
  const seed = t.emu.seeds.get(t.tokenA)!;
  const agent = (await t.call("POST", "/v1/agents/create", { prompt: "p", voice: seed.voices[0] })).json.id as string;
  ids = [...seed.voices, ...seed.actions, ...seed.webhooks, agent];
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
