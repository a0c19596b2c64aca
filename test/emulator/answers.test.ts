// The emulator answering in its own words (emulator/answers.ts): credentials masked or left out,
// unset fields as null, lists in another order or lagging behind writes. In-process (inject); the
// answers are still checked against the routes' schemas (validateResponses).
import { describe, expect, it } from "vitest";
import type { AnswerModes } from "voiceagent-emulator";
import { testEmulator } from "../helpers/emulator.js";

const OPENAI_KEY = "sk-test-openai-9876";
const PINECONE_KEY = "pc-test-key-5555";
const VOICE_KEY = "el-test-key-4321";

async function current(answers: AnswerModes) {
  return testEmulator({ api: "2024", answers });
}

describe("credentials", () => {
  it("masked: every credential of every kind answers **** and its last 4, wherever an answer holds it", async () => {
    const t = await current({ credentials: "masked" });
    const conn = await t.call("POST", "/v1/account_connections/create", {
      type: "account_connection_openai",
      credentials: { openai_api_key: OPENAI_KEY },
    });
    expect(conn.json.credentials).toEqual({ openai_api_key: "****9876" });
    const vdb = await t.call("POST", "/v1/vector_databases/create", {
      type: "vector_database_pinecone",
      index: "docs",
      api_key: PINECONE_KEY,
      api_environment: "us-east-1-aws",
    });
    expect(vdb.json.api_key).toBe("****5555");
    const voice = await t.call("POST", "/v1/voices/create", {
      type: "voice_play_ht",
      voice_id: "v1",
      api_key: VOICE_KEY,
      api_user_id: "user-1234",
    });
    expect(voice.status, JSON.stringify(voice.json)).toBe(200);
    expect([voice.json.api_key, voice.json.api_user_id]).toEqual(["****4321", "****1234"]);
    // Read by id, in a list, and embedded in an agent: masked alike.
    expect((await t.call("GET", `/v1/account_connections?id=${conn.json.id}`)).json.credentials.openai_api_key).toBe(
      "****9876",
    );
    const listed = (await t.call("GET", "/v1/vector_databases/list")).json.items;
    expect(listed.map((v: { api_key: string }) => v.api_key)).toEqual(["****5555"]);
    const agent = await t.call("POST", "/v1/agents/create", {
      prompt: { content: "Hi." },
      voice: voice.json.id,
      openai_account_connection: conn.json.id,
    });
    expect(agent.status, JSON.stringify(agent.json)).toBe(200);
    expect(JSON.stringify(agent.json)).not.toContain(OPENAI_KEY);
    expect(JSON.stringify(agent.json)).not.toContain(VOICE_KEY);
    expect(agent.json.voice.api_key).toBe("****4321");
    // Only the answer is masked: the service keeps the key (an update that leaves it out keeps it).
    const stored = t.emu.store.get<{ credentials: { openai_api_key: string } }>(
      "account_connection",
      agent.json.user_id,
      conn.json.id,
    );
    expect(stored?.credentials.openai_api_key).toBe(OPENAI_KEY);
  });

  it("omitted: left out of every answer", async () => {
    const t = await current({ credentials: "omitted" });
    const conn = await t.call("POST", "/v1/account_connections/create", {
      type: "account_connection_twilio",
      credentials: { twilio_account_sid: "AC1", twilio_auth_token: "tw-token-0000" },
    });
    expect(conn.json.credentials).toEqual({ twilio_account_sid: "AC1" });
    const listed = (await t.call("GET", "/v1/account_connections/list")).json.items;
    expect(listed[0].credentials).toEqual({ twilio_account_sid: "AC1" });
  });
});

describe("unsetAsNull", () => {
  it("answers every optional field the request left out as null, nested ones too", async () => {
    const t = await current({ unsetAsNull: true });
    const prompt = await t.call("POST", "/v1/prompts/create", {
      content: "Collect the email.",
      collect_fields: [{ field_type: "field_type_email", label: "Email", name: "email" }],
    });
    expect(prompt.status, JSON.stringify(prompt.json)).toBe(200);
    expect(prompt.json.context_endpoint).toBeNull();
    expect(prompt.json.collect_fields).toEqual([
      { field_type: "field_type_email", label: "Email", name: "email", description: null },
    ]);
    const listed = (await t.call("GET", "/v1/prompts/list")).json.items;
    expect(listed[0].collect_fields[0].description).toBeNull();
    // A field the request gave keeps its value.
    expect(listed[0].content).toBe("Collect the email.");
  });
});

describe("lists", () => {
  it("reversed: newest first, page by page", async () => {
    const t = await current({ order: "reversed" });
    for (const content of ["one", "two", "three"]) await t.call("POST", "/v1/prompts/create", { content });
    const page1 = (await t.call("GET", "/v1/prompts/list?page=1&size=2")).json;
    const page2 = (await t.call("GET", "/v1/prompts/list?page=2&size=2")).json;
    expect([...page1.items, ...page2.items].map((p: { content: string }) => p.content)).toEqual([
      "three",
      "two",
      "one",
    ]);
    expect([page1.total, page1.has_more, page2.has_more]).toEqual([3, true, false]);
  });

  it("listLag: a new object is missing from the next listings (and their total), read by id at once", async () => {
    const t = await current({ listLag: { listings: 2 } });
    await t.call("POST", "/v1/prompts/create", { content: "old" });
    const listed = async () => (await t.call("GET", "/v1/prompts/list")).json;
    // The listings that saw "old" made: it is no longer new after two of them.
    await listed();
    await listed();
    const made = (await t.call("POST", "/v1/prompts/create", { content: "new" })).json;
    for (let i = 0; i < 2; i++) {
      const page = await listed();
      expect(page.items.map((p: { content: string }) => p.content)).toEqual(["old"]);
      expect(page.total).toBe(1);
    }
    expect((await t.call("GET", `/v1/prompts?id=${made.id}`)).json.content).toBe("new");
    expect((await listed()).items.map((p: { content: string }) => p.content)).toEqual(["old", "new"]);
  });

  it("listLag on the interface's collections too (seeded objects listed at once)", async () => {
    const t = await testEmulator({ answers: { listLag: { listings: 1 } } });
    const seed = t.emu.seeds.get(t.tokenA)!;
    const before = (await t.call("GET", "/v1/agents/list")).json.items.length;
    await t.call("POST", "/v1/agents/create", { prompt: "Hi.", voice: seed.voices[0] });
    expect((await t.call("GET", "/v1/voices/list")).json.items.length).toBe(seed.voices.length);
    expect((await t.call("GET", "/v1/agents/list")).json.items.length).toBe(before);
    expect((await t.call("GET", "/v1/agents/list")).json.items.length).toBe(before + 1);
  });
});
