// Each documented endpoint: method, path, query, headers and body exactly as the interface says.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, PACKAGE_VERSION } from "pulumi-voiceagent/client";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";
import { agent, callOf, USER, voice } from "../helpers/wire-fixtures.js";

const TOKEN = `wire-${randomUUID()}`;
const number = { id: randomUUID(), user_id: USER, active: true, inbound_agent: agent, number: "+15551234567" };
const call = callOf(randomUUID(), "not_started");

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer((req) => {
    const byPath: Record<string, unknown> = {
      "/v1/agents/create": agent,
      "/v1/agents": agent,
      "/v1/agents/update": agent,
      "/v1/numbers/update": number,
      "/v1/numbers/cancel": { ...number, active: false },
      "/v1/calls/create": call,
      "/v1/calls/end": call,
      "/v1/voices/update": voice,
    };
    const answer = byPath[req.path];
    // A server with only the documented routes: the extension list routes are missing (404).
    if (answer === undefined) return { status: 404, json: { detail: "Not Found" } };
    // A newer server may add fields: the client must ignore them.
    return { json: { ...(answer as object), added_by_a_newer_server: true } };
  });
});
afterAll(() => server.close());

const last = () => server.requests[server.requests.length - 1]!;

describe("the 8 documented endpoints on the wire", () => {
  const client = () => createClient({ baseUrl: `${server.url}/`, token: TOKEN });

  it.each([
    [
      "agents/create",
      () => client().agents.create({ prompt: "p", voice: voice.id, actions: [] }),
      "POST",
      "/v1/agents/create",
      {},
      { prompt: "p", voice: voice.id, actions: [] },
    ],
    ["GET agents", () => client().agents.get(agent.id), "GET", "/v1/agents", { id: agent.id }, undefined],
    [
      "agents/update",
      () => client().agents.update(agent.id, { actions: [voice.id] }),
      "POST",
      "/v1/agents/update",
      { id: agent.id },
      { actions: [voice.id] },
    ],
    [
      "numbers/update",
      () => client().numbers.update("+15551234567", agent.id),
      "POST",
      "/v1/numbers/update",
      { phone_number: "+15551234567" },
      { inbound_agent: agent.id },
    ],
    [
      "numbers/cancel",
      () => client().numbers.cancel("+15551234567"),
      "POST",
      "/v1/numbers/cancel",
      { phone_number: "+15551234567" },
      undefined,
    ],
    [
      "calls/create",
      () => client().calls.create({ from_number: "+15551234567", to_number: "+15550000001", agent: agent.id }),
      "POST",
      "/v1/calls/create",
      {},
      { from_number: "+15551234567", to_number: "+15550000001", agent: agent.id },
    ],
    ["calls/end", () => client().calls.end(call.id), "POST", "/v1/calls/end", { id: call.id }, undefined],
    [
      "voices/update",
      () => client().voices.update(voice.id, { type: "voice_base", voice_name: "alloy", pitch: 0, rate: 1 }),
      "POST",
      "/v1/voices/update",
      { id: voice.id },
      { type: "voice_base", voice_name: "alloy", pitch: 0, rate: 1 },
    ],
  ] as const)("%s", async (_name, run, method, path, query, body) => {
    const result = await run();
    const req = last();
    expect(req.method).toBe(method);
    expect(req.path).toBe(path);
    expect(req.query).toEqual(query);
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req.headers["user-agent"]).toBe(`pulumi-voiceagent/${PACKAGE_VERSION} (node ${process.versions.node})`);
    if (body === undefined) {
      expect(req.body).toBe("");
    } else {
      expect(req.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(req.body)).toEqual(body);
    }
    expect(result).not.toHaveProperty("added_by_a_newer_server");
    expect(result).toHaveProperty("id");
  });

  it("GET /v1/agents (no trailing slash, as the SDKs call it) parses one agent object with embedded voice", async () => {
    const got = await client().agents.get(agent.id);
    expect(got.voice).toEqual(voice);
    expect(got.actions).toEqual([]);
  });
});
