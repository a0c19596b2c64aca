// The routes only the current API (2024) has, and the 2024 fields of the interface's kinds, as the
// emulator's `--api 2024` serves them (in-process inject; answers checked by validateResponses
// against the 0.0.48-shaped schemas, and here against what was sent). The interface dialect
// answers every one of these routes 404.
import { beforeEach, describe, expect, it } from "vitest";
import {
  AgentCreate2024Schema,
  AgentItem2024Schema,
  CallItem2024Schema,
  collections,
  currentOnlyRoutes,
  secretValuesOf,
} from "pulumi-voiceagent/schemas";
import { testEmulator, type TestEmulator } from "../helpers/emulator.js";

let t: TestEmulator;
let seed: { voices: string[]; actions: string[]; webhooks: string[]; numbers: string[] };
beforeEach(async () => {
  t = await testEmulator({ api: "2024" });
  seed = t.emu.seeds.get(t.tokenA)!;
});

const twilioBody = (token = "tw-secret") => ({
  type: "account_connection_twilio",
  credentials: { twilio_account_sid: "AC1", twilio_auth_token: token },
});

async function twilio() {
  const res = await t.call("POST", "/v1/account_connections/create", twilioBody());
  expect(res.status).toBe(200);
  return res.json.id as string;
}

async function agent(extra: Record<string, unknown> = {}) {
  const res = await t.call("POST", "/v1/agents/create", { prompt: "Hi.", voice: seed.voices[0], ...extra });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json;
}

describe("the interface dialect", () => {
  it("answers every route only the current API has 404", async () => {
    const t23 = await testEmulator();
    const routes = [
      ...Object.values(collections)
        .filter((c) => c.generation === "2024")
        .flatMap((c) => Object.values(c.routes)),
      ...Object.values(currentOnlyRoutes),
    ];
    expect(routes.length).toBe(16);
    for (const r of routes) {
      const res = await t23.call(r.method, r.path, r.method === "POST" ? {} : undefined);
      expect(res.status, `${r.method} ${r.path}`).toBe(404);
    }
  });
});

describe("a route only the current API has, called with the wrong method", () => {
  it("is 405 naming the method it takes in the 2024 dialect, 404 in the interface's", async () => {
    const res = await t.call("GET", "/v1/prompts/create");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("POST");
    expect((await (await testEmulator()).call("GET", "/v1/prompts/create")).status).toBe(404);
  });
});

describe("the 2024 dialect's OpenAPI document", () => {
  it("lists every route only the current API has", async () => {
    const res = await t.emu.app.inject({ method: "GET", url: "/openapi.json" });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const r of [
      ...Object.values(collections)
        .filter((c) => c.generation === "2024")
        .flatMap((c) => Object.values(c.routes)),
      ...Object.values(currentOnlyRoutes),
    ]) {
      expect(paths).toContain(r.path);
    }
  });
});

describe("prompts", () => {
  it("are created, read, listed and updated, per user", async () => {
    const made = await t.call("POST", "/v1/prompts/create", {
      content: "Be brief.",
      collect_fields: [{ label: "Email", name: "email" }],
    });
    expect(made.status).toBe(200);
    expect(made.json).toMatchObject({
      content: "Be brief.",
      collect_fields: [{ field_type: "field_type_email", label: "Email", name: "email" }],
    });
    const id = made.json.id;
    expect((await t.call("GET", `/v1/prompts?id=${id}`)).json.content).toBe("Be brief.");
    expect((await t.call("GET", `/v1/prompts?id=${id}`, undefined, t.tokenB)).status).toBe(404);
    const listed = await t.call("GET", "/v1/prompts/list?page=1&size=10");
    expect(listed.json).toMatchObject({ total: 1, has_more: false, total_is_estimated: false });
    const updated = await t.call("POST", `/v1/prompts/update?id=${id}`, {
      context_endpoint: "https://ctx.example.com",
    });
    // A field left out stays.
    expect(updated.json).toMatchObject({ content: "Be brief.", context_endpoint: "https://ctx.example.com" });
  });

  it("refuses a template it does not know, naming the field, and writes nothing", async () => {
    const res = await t.call("POST", "/v1/prompts/create", {
      content: "x",
      prompt_template: "6b1f4c52-0d7e-4d43-9a7e-3f0f6c1e2a11",
    });
    expect(res.status).toBe(422);
    expect(res.json.detail[0].loc).toEqual(["body", "prompt_template"]);
    expect((await t.call("GET", "/v1/prompts/list")).json.total).toBe(0);
  });
});

describe("account connections", () => {
  it("answer their credentials back, as 0.0.48's response models require them", async () => {
    const res = await t.call("POST", "/v1/account_connections/create", {
      type: "account_connection_openai",
      credentials: { openai_api_key: "sk-1" },
    });
    expect(res.json).toMatchObject({ type: "account_connection_openai", credentials: { openai_api_key: "sk-1" } });
    expect(secretValuesOf("account_connections", res.json)).toEqual(["sk-1"]);
    const upd = await t.call("POST", `/v1/account_connections/update?id=${res.json.id}`, {
      type: "account_connection_openai",
      credentials: { openai_api_key: "sk-2" },
    });
    expect(upd.json.credentials.openai_api_key).toBe("sk-2");
  });

  it("cannot change type", async () => {
    const id = await twilio();
    const res = await t.call("POST", `/v1/account_connections/update?id=${id}`, { type: "account_connection_openai" });
    expect(res.status).toBe(422);
    expect(res.json.detail[0].loc).toEqual(["body", "type"]);
  });

  it("keep a Twilio steering pool: a number of the team's added once, removed, and nothing else", async () => {
    const id = await twilio();
    const n = seed.numbers[0];
    const add = () => t.call("POST", `/v1/account_connections/add_to_steering_pool?id=${id}`, { phone_number: n });
    expect((await add()).json.steering_pool).toEqual([n]);
    expect((await add()).json.steering_pool).toEqual([n]);
    const other = await t.call("POST", `/v1/account_connections/add_to_steering_pool?id=${id}`, {
      phone_number: t.emu.seeds.get(t.tokenB)!.numbers[0],
    });
    expect(other.status).toBe(422);
    const removed = await t.call("POST", `/v1/account_connections/remove_from_steering_pool?id=${id}`, {
      phone_number: n,
    });
    expect(removed.json.steering_pool).toEqual([]);
    const openai = await t.call("POST", "/v1/account_connections/create", {
      type: "account_connection_openai",
      credentials: { openai_api_key: "k" },
    });
    const wrong = await t.call("POST", `/v1/account_connections/add_to_steering_pool?id=${openai.json.id}`, {
      phone_number: n,
    });
    expect(wrong.status).toBe(422);
  });
});

describe("vector databases", () => {
  it("are created, read, listed and updated; a missing key is refused naming it", async () => {
    const bad = await t.call("POST", "/v1/vector_databases/create", { index: "i", api_environment: "e" });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.json.detail)).toContain("api_key");
    const made = await t.call("POST", "/v1/vector_databases/create", {
      index: "i",
      api_key: "pk",
      api_environment: "e",
    });
    expect(made.json).toMatchObject({ type: "vector_database_pinecone", index: "i", api_key: "pk" });
    const upd = await t.call("POST", `/v1/vector_databases/update?id=${made.json.id}`, { index: "j" });
    expect(upd.json).toMatchObject({ index: "j", api_key: "pk", api_environment: "e" });
    expect((await t.call("GET", `/v1/vector_databases?id=${made.json.id}`)).json.index).toBe("j");
    expect((await t.call("GET", "/v1/vector_databases/list")).json.total).toBe(1);
  });
});

describe("numbers/link and usage", () => {
  it("links a number of the team's Twilio account, embedded in full answers and by id in lists", async () => {
    const conn = await twilio();
    const a = await agent();
    const res = await t.call("POST", "/v1/numbers/link", {
      phone_number: "+14155550100",
      telephony_account_connection: conn,
      inbound_agent: a.id,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ number: "+14155550100", active: true, telephony_provider: "twilio" });
    expect(res.json.telephony_account_connection.id).toBe(conn);
    // The embedded agent is a full Agent: its prompt an object.
    expect(res.json.inbound_agent.prompt).toMatchObject({ content: "Hi." });
    const listed = await t.call("GET", "/v1/numbers/list?size=100");
    const item = listed.json.items.find((n: { number: string }) => n.number === "+14155550100");
    expect(item.telephony_account_connection).toBe(conn);
    const again = await t.call("POST", "/v1/numbers/link", {
      phone_number: "+14155550100",
      telephony_account_connection: conn,
    });
    expect(again.status).toBe(422);
    expect(again.json.detail[0].loc).toEqual(["body", "phone_number"]);
  });

  it("refuses a connection that is not one of the team's Twilio ones", async () => {
    const openai = await t.call("POST", "/v1/account_connections/create", {
      type: "account_connection_openai",
      credentials: { openai_api_key: "k" },
    });
    const res = await t.call("POST", "/v1/numbers/link", {
      phone_number: "+14155550101",
      telephony_account_connection: openai.json.id,
    });
    expect(res.status).toBe(422);
    expect(res.json.detail[0].loc).toEqual(["body", "telephony_account_connection"]);
  });

  it("reports usage", async () => {
    const res = await t.call("GET", "/v1/usage");
    expect(res.json).toMatchObject({ plan_type: "plan_developer", monthly_usage_minutes: 0 });
  });
});

describe("the 2024 fields of agents and calls", () => {
  it("keeps every agent field, and refuses an unknown language naming the field", async () => {
    const a = await agent({
      language: "es",
      llm_fallback: { provider: "openai", model_name: "gpt-4o-mini" },
      deepgram_keywords: { cita: 1.5 },
      vector_database: { index: "i", api_key: "pk", api_environment: "e" },
    });
    expect(a).toMatchObject({ language: "es", deepgram_keywords: { cita: 1.5 }, vector_database: { index: "i" } });
    const bad = await t.call("POST", "/v1/agents/create", { prompt: "x", voice: seed.voices[0], language: "sv" });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.json.detail)).toContain("language");
    // The inline prompt keeps one id across reads.
    const again = await t.call("GET", `/v1/agents?id=${a.id}`);
    expect(again.json.prompt.id).toBe(a.prompt.id);
  });

  it("answers every call with telephony_provider and agent_phone_number", async () => {
    const a = await agent();
    const made = await t.call("POST", "/v1/calls/create", {
      from_number: seed.numbers[0],
      to_number: "+15550001111",
      agent: a.id,
      on_no_human_answer: "hangup",
    });
    expect(made.status).toBe(200);
    const listed = await t.call("GET", "/v1/calls/list");
    for (const c of [made.json, (await t.call("GET", `/v1/calls?id=${made.json.id}`)).json, listed.json.items[0]]) {
      expect(c).toMatchObject({ telephony_provider: "twilio", agent_phone_number: seed.numbers[0] });
    }
    expect(made.json.on_no_human_answer).toBe("hangup");
  });
});

describe("open enumerations", () => {
  it("are read whatever the service sends, and checked on what is sent", () => {
    const read = AgentItem2024Schema.parse({
      id: "a",
      user_id: "u",
      prompt: "p",
      actions: [],
      voice: "v",
      language: "sv",
      interrupt_sensitivity: "medium",
    });
    expect(read).toMatchObject({ language: "sv", interrupt_sensitivity: "medium" });
    const call = CallItem2024Schema.parse({
      id: "c",
      user_id: "u",
      to_number: "+1",
      from_number: "+2",
      agent: "a",
      telephony_provider: "telnyx",
      agent_phone_number: "+2",
      status: "queued",
    });
    expect(call).toMatchObject({ telephony_provider: "telnyx", status: "queued" });
    const sent = AgentCreate2024Schema.safeParse({ prompt: "p", voice: seed.voices[0], language: "sv" });
    expect(sent.success).toBe(false);
  });
});
