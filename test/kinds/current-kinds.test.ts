// The current API's own kinds (issue 35): Prompt, VectorDatabase and AccountConnection, driven
// in-process the way the engine drives them (the dynamic runtime the shims call, and the native
// plugin's plain provider for import), against the emulator speaking the current API (2024):
// create, read, drift made behind the provider's back, update in place, a Twilio connection's
// steering pool through its own two routes, credentials kept out of every failure and note, a
// service that does not echo them, enum values a newer service sends, the interface's API (2023)
// refused at preview, and creates made exactly once when their replies are lost. That the
// credentials are secret in the schema (and so in the SDKs and the state) is asserted here too.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { createClient } from "../../provider/client/index.js";
import { FUNCTIONS } from "../../provider/resources/functions/index.js";
import { secretPaths } from "../../provider/resources/kit/function.js";
import { runtimeFor as runtimeIn } from "../../provider/dynamic/runtimes.js";
import { Host } from "../../provider/host.js";
import { inProcessPlugin } from "../helpers/plugin-harness.js";
import { REPO_ROOT } from "../helpers/consumer.js";
import { startRecordingServer } from "../helpers/recording-server.js";

const host = new Host({ notes: (text) => notes.push(text) });
/** A kind's runtime as the dynamic host builds it: in this file's host. */
const runtimeFor = (kind: Parameters<typeof runtimeIn>[0]) => runtimeIn(kind, host);

let emu: RunningEmulator;
let old: RunningEmulator;
const token = `kinds-${randomUUID()}`;
const notes: string[] = [];
// Values no message could hold by chance: any text that contains one leaked it.
const OPENAI_KEY = `sk-${randomUUID()}`;
const TWILIO_TOKEN = `tw-${randomUUID()}`;
const PINECONE_KEY = `pc-${randomUUID()}`;
const SECRETS = [OPENAI_KEY, TWILIO_TOKEN, PINECONE_KEY];
const settings = (api: string, url = emu.url) => ({
  baseUrl: url,
  token,
  config: { get: (k: string) => (k === "voiceagent:api" ? api : undefined) },
});
type Row = Record<string, unknown>;
type StoreKind = "prompt" | "vector_database" | "account_connection";
/** An object as the emulator stores it (what the service holds). */
const stored = (kind: StoreKind, userId: unknown, id: string) => emu.store.get<Row>(kind, String(userId), id) ?? {};
/** Changes an object behind the provider's back, as a hand edit in the dashboard would. */
const handEdit = (kind: StoreKind, userId: unknown, id: string, change: Row) =>
  emu.store.update(kind, { ...stored(kind, userId, id), ...change, id, user_id: String(userId) });
const leaked = (text: string) => SECRETS.filter((s) => text.includes(s));

beforeAll(async () => {
  [emu, old] = await Promise.all([
    startEmulator({ tokens: [token], seed: true, api: "2024" }),
    startEmulator({ tokens: [token], seed: true, api: "2023" }),
  ]);
});
afterAll(async () => {
  await Promise.all([emu?.close(), old?.close()]);
});
afterEach(() => {
  expect(leaked(notes.join("\n"))).toEqual([]);
  notes.length = 0;
});

describe("Prompt", () => {
  const prompt = runtimeFor("Prompt");
  const declared = {
    content: "You book visits.",
    collectFields: [{ name: "email", label: "Email address" }],
    contextEndpoint: "https://ctx.example/clinic",
  };

  it("is created, read back without drift, a hand edit shows as drift, and an update puts it back in place", async () => {
    const s = settings("2024");
    const checked = await prompt.check(s, {}, declared);
    expect(checked.failures).toBeUndefined();
    // What the engine then hands create and diff: the inputs as check answered them (defaults filled).
    const inputs = checked.inputs;
    const made = await prompt.create(s, inputs);
    expect(stored("prompt", made.outs.userId, made.id)).toMatchObject({
      content: "You book visits.",
      collect_fields: [{ field_type: "field_type_email", name: "email", label: "Email address" }],
      context_endpoint: "https://ctx.example/clinic",
    });
    const read = await prompt.read(s, made.id, made.outs);
    expect(await prompt.diff(s, made.id, read.props ?? {}, inputs)).toMatchObject({ changes: false });

    handEdit("prompt", made.outs.userId, made.id, { content: "Edited in the dashboard." });
    // The next `preview --refresh` runs in a provider process of its own (this one's listing is its refresh's).
    const drifted = await runtimeIn("Prompt", new Host()).read(s, made.id, made.outs);
    expect(drifted.props).toMatchObject({ content: "Edited in the dashboard." });
    expect(await prompt.diff(s, made.id, drifted.props ?? {}, inputs)).toMatchObject({
      changes: true,
      replaces: [],
      changed: ["content"],
    });
    const updated = await prompt.update(s, made.id, drifted.props ?? {}, inputs);
    expect(updated.outs).toMatchObject({ content: "You book visits." });
    expect(stored("prompt", made.outs.userId, made.id)).toMatchObject({ content: "You book visits." });
  });

  it("a field type the service added reads as drift, not a parse failure; one a program declares is checked at preview", async () => {
    const s = settings("2024");
    const inputs = (await prompt.check(s, {}, declared)).inputs;
    const made = await prompt.create(s, inputs);
    handEdit("prompt", made.outs.userId, made.id, {
      collect_fields: [{ field_type: "field_type_phone", name: "email", label: "Email address" }],
    });
    const read = await prompt.read(s, made.id, made.outs);
    expect(read.props).toMatchObject({ collectFields: [{ fieldType: "field_type_phone", name: "email" }] });
    expect(await prompt.diff(s, made.id, read.props ?? {}, inputs)).toMatchObject({
      changes: true,
      changed: ["collectFields"],
    });
    const before = emu.stats.total;
    const bad = await prompt.check(
      s,
      {},
      { ...declared, collectFields: [{ name: "e", label: "E", fieldType: "phone" }] },
    );
    expect(bad.failures?.map((f) => f.reason)).toEqual([
      expect.stringMatching(/^collectFields\[0\]\.fieldType must be one of field_type_email; nothing was sent/),
    ]);
    const misspelt = await prompt.check(s, {}, { ...declared, collectFields: [{ name: "e", label: "E", lable: "F" }] });
    expect(misspelt.failures?.map((f) => f.reason)).toEqual([
      expect.stringMatching(
        /^collectFields\[0\] has no key "lable": its keys are fieldType, label, name, description;/,
      ),
    ]);
    expect(emu.stats.total).toBe(before);
  });

  it("adopts an existing prompt by promptId, and is imported by id on the native entry", async () => {
    const client = createClient({ baseUrl: emu.url, token, api: "2024" });
    const existing = await client.prompts.create({ content: "Made by hand." });
    const adopted = await prompt.create(settings("2024"), { ...declared, promptId: existing.id });
    expect(adopted.id).toBe(existing.id);
    expect(stored("prompt", existing.user_id, existing.id)).toMatchObject({ content: "You book visits." });

    const p = inProcessPlugin().provider;
    await p.configure({ config: { baseUrl: emu.url, token, api: "2024" }, plainKeys: [] });
    const imported = await p.read({
      urn: "urn:pulumi:dev::proj::voiceagent:index:Prompt::p",
      type: "voiceagent:index:Prompt",
      id: existing.id,
      properties: {},
      inputs: {},
    });
    expect(imported).toMatchObject({ id: existing.id, inputs: { content: "You book visits." } });
  });

  it("adopted by promptId alone, it keeps its text and settles: no failure, then no change", async () => {
    const client = createClient({ baseUrl: emu.url, token, api: "2024" });
    const existing = await client.prompts.create({ content: "Written in the dashboard." });
    const s = settings("2024");
    const inputs = (await prompt.check(s, {}, { promptId: existing.id })).inputs;
    const adopted = await prompt.create(s, inputs);
    expect(adopted.id).toBe(existing.id);
    expect(stored("prompt", existing.user_id, existing.id)).toMatchObject({ content: "Written in the dashboard." });
    const read = await runtimeIn("Prompt", new Host()).read(s, adopted.id, adopted.outs);
    expect(await prompt.diff(s, adopted.id, read.props ?? {}, inputs)).toMatchObject({ changes: false });
  });
});

describe("VectorDatabase", () => {
  const vdb = runtimeFor("VectorDatabase");
  const inputs = { index: "clinic-faq", apiKey: PINECONE_KEY, apiEnvironment: "us-east-1-aws" };

  it("is created and updated in place; a service that does not echo its key causes no drift", async () => {
    const s = settings("2024");
    const made = await vdb.create(s, inputs);
    expect(made.outs).toMatchObject({ type: "vector_database_pinecone", apiKey: PINECONE_KEY });
    expect(stored("vector_database", made.outs.userId, made.id)).toMatchObject({ api_key: PINECONE_KEY });
    const moved = { ...inputs, apiEnvironment: "eu-west-1-aws" };
    expect(await vdb.diff(s, made.id, made.outs, moved)).toMatchObject({ changes: true, replaces: [] });
    const updated = await vdb.update(s, made.id, made.outs, moved);
    expect(stored("vector_database", made.outs.userId, made.id)).toMatchObject({ api_environment: "eu-west-1-aws" });

    const { api_key: _dropped, ...withoutKey } = stored("vector_database", made.outs.userId, made.id);
    emu.store.update("vector_database", { ...withoutKey, id: made.id, user_id: String(made.outs.userId) });
    const read = await vdb.read(s, made.id, updated.outs ?? {});
    expect(read.props).toMatchObject({ apiKey: PINECONE_KEY });
    expect(await vdb.diff(s, made.id, read.props ?? {}, moved)).toMatchObject({ changes: false });
  });

  it("a type the service added reads as drift (a replacement), not a parse failure", async () => {
    const s = settings("2024");
    const made = await vdb.create(s, inputs);
    handEdit("vector_database", made.outs.userId, made.id, { type: "vector_database_weaviate" });
    const read = await vdb.read(s, made.id, made.outs);
    expect(read.props).toMatchObject({ type: "vector_database_weaviate" });
    expect(await vdb.diff(s, made.id, read.props ?? {}, inputs)).toMatchObject({ changes: true, changed: ["type"] });
  });

  it("a refusal that quotes the key shows the service's reason, never the key", async () => {
    const quoted = `${PINECONE_KEY}-bad`;
    // A service that quotes what it was sent in its 422 (FastAPI's errors may echo the input).
    const refusing = await startRecordingServer((req) => {
      const sent: unknown = JSON.parse(req.body || "{}");
      const key = typeof sent === "object" && sent && "api_key" in sent ? String(sent.api_key) : "";
      return {
        status: 422,
        json: { detail: [{ loc: ["body", "api_key"], msg: `${key} is not a key`, type: "value_error" }] },
      };
    });
    try {
      const err = await vdb
        .create(settings("2024", refusing.url), { ...inputs, apiKey: quoted })
        .catch((e: unknown) => e);
      // The request did carry the key: the redaction is what keeps it out.
      expect(refusing.requests.some((r) => r.body.includes(quoted))).toBe(true);
      expect(String(err)).toMatch(/is not a key/);
      expect(String(err)).not.toContain(quoted);
    } finally {
      await refusing.close();
    }
  });
});

describe("AccountConnection", () => {
  const conn = runtimeFor("AccountConnection");
  const twilio = (pool: string[]) => ({
    type: "account_connection_twilio",
    twilioAccountSid: "AC0123",
    twilioAuthToken: TWILIO_TOKEN,
    steeringPool: pool,
  });

  it("each type's own fields are checked at preview, naming fields and never values", async () => {
    const s = settings("2024");
    const bad = await conn.check(s, {}, { type: "account_connection_openai", twilioAuthToken: TWILIO_TOKEN });
    expect(bad.failures?.map((f) => f.reason)).toEqual([
      "openaiApiKey is required for an account_connection_openai; nothing was sent to the service",
      "twilioAuthToken is not a field of an account_connection_openai: remove it, or choose the type that has it; nothing was sent to the service",
    ]);
    const unknownType = await conn.check(s, {}, { type: "account_connection_vonage", openaiApiKey: OPENAI_KEY });
    expect(unknownType.failures?.[0]?.reason).toMatch(/^type /);
    // The reasons are what the engine prints (check's inputs are the program's own, never printed).
    expect(leaked(JSON.stringify([bad.failures, unknownType.failures]))).toEqual([]);
  });

  it("Twilio: the steering pool changes through add/remove, a hand edit of it is drift, the token stays out of errors", async () => {
    const s = settings("2024");
    const [a, b, c] = emu.seeds.get(token)?.numbers ?? [];
    if (!a || !b || !c) throw new Error("the emulator seeded too few numbers");
    const made = await conn.create(s, twilio([a, b]));
    expect(made.outs).toMatchObject({ type: "account_connection_twilio", steeringPool: [a, b] });
    expect(stored("account_connection", made.outs.userId, made.id)).toMatchObject({
      credentials: { twilio_account_sid: "AC0123", twilio_auth_token: TWILIO_TOKEN },
      steering_pool: [a, b],
    });

    const before = { ...emu.stats.byRoute };
    const changed = twilio([b, c]);
    expect(await conn.diff(s, made.id, made.outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const updated = await conn.update(s, made.id, made.outs, changed);
    expect(updated.outs).toMatchObject({ steeringPool: [b, c] });
    const calls = (route: string) => (emu.stats.byRoute[route] ?? 0) - (before[route] ?? 0);
    expect(calls("POST /v1/account_connections/add_to_steering_pool")).toBe(1);
    expect(calls("POST /v1/account_connections/remove_from_steering_pool")).toBe(1);

    handEdit("account_connection", made.outs.userId, made.id, { steering_pool: [c] });
    const drifted = await conn.read(s, made.id, updated.outs ?? {});
    expect(await conn.diff(s, made.id, drifted.props ?? {}, changed)).toMatchObject({
      changes: true,
      changed: ["steeringPool"],
    });

    // A connection whose service answers without the credentials: the recorded ones stand.
    handEdit("account_connection", made.outs.userId, made.id, { steering_pool: [b, c], credentials: {} });
    const unechoed = await conn.read(s, made.id, updated.outs ?? {});
    expect(unechoed.props).toMatchObject({ twilioAuthToken: TWILIO_TOKEN });

    // A pool number the service refuses: the error names the field, never the token.
    const err = await conn.update(s, made.id, updated.outs ?? {}, twilio([b, c, "+15559999999"])).catch((e) => e);
    expect(String(err)).toMatch(/phone_number/);
    expect(leaked(String(err))).toEqual([]);
  });

  it("is imported by id on the native entry with both credentials secret, though the engine marks none on import", async () => {
    const client = createClient({ baseUrl: emu.url, token, api: "2024" });
    const existing = await client.account_connections.create({
      type: "account_connection_twilio",
      credentials: { twilio_account_sid: "AC0123", twilio_auth_token: TWILIO_TOKEN },
    });
    const p = inProcessPlugin().provider;
    await p.configure({ config: { baseUrl: emu.url, token, api: "2024" }, plainKeys: [] });
    const imported = await p.read({
      urn: "urn:pulumi:dev::proj::voiceagent:index:AccountConnection::c",
      type: "voiceagent:index:AccountConnection",
      id: existing.id,
      properties: {},
      inputs: {},
    });
    expect(imported).toMatchObject({ id: existing.id, inputs: { type: "account_connection_twilio" } });
    expect("secrets" in imported ? imported.secrets : undefined).toEqual(
      expect.arrayContaining(["openaiApiKey", "twilioAuthToken"]),
    );
  });

  it("adopting one whose create-only field differs is refused before any write, naming the field", async () => {
    const client = createClient({ baseUrl: emu.url, token, api: "2024" });
    const [a, b] = emu.seeds.get(token)?.numbers ?? [];
    if (!a || !b) throw new Error("the emulator seeded too few numbers");
    const existing = await client.account_connections.create({
      type: "account_connection_twilio",
      credentials: { twilio_account_sid: "AC0123", twilio_auth_token: "held-token" },
      steering_pool: [a],
      account_supports_any_caller_id: false,
    });
    const held = stored("account_connection", existing.user_id, existing.id);
    const writes = () => Object.values(emu.stats.writes).reduce((n, x) => n + x, 0);
    const before = writes();
    const adopt = { ...twilio([a, b]), accountSupportsAnyCallerId: true, accountConnectionId: existing.id };
    const err = await conn.create(settings("2024"), adopt).catch((e: unknown) => e);
    expect(String(err)).toMatch(/accountSupportsAnyCallerId/);
    expect(String(err)).toMatch(/nothing was sent/);
    expect(leaked(String(err))).toEqual([]);
    // Neither the credentials nor the pool were written.
    expect(writes()).toBe(before);
    expect(stored("account_connection", existing.user_id, existing.id)).toEqual(held);
    // The same connection declared with its own value is adopted.
    const adopted = await conn.create(settings("2024"), { ...adopt, accountSupportsAnyCallerId: false });
    expect(adopted.id).toBe(existing.id);
  });

  it("a connection type the service added reads as drift (a replacement), not a parse failure", async () => {
    const s = settings("2024");
    const inputs = { type: "account_connection_openai", openaiApiKey: OPENAI_KEY };
    const made = await conn.create(s, inputs);
    expect(made.outs).toMatchObject({ openaiApiKey: OPENAI_KEY });
    handEdit("account_connection", made.outs.userId, made.id, { type: "account_connection_anthropic" });
    const read = await conn.read(s, made.id, made.outs);
    expect(read.props).toMatchObject({ type: "account_connection_anthropic", openaiApiKey: OPENAI_KEY });
    expect(await conn.diff(s, made.id, read.props ?? {}, inputs)).toMatchObject({
      changes: true,
      replaces: ["type"],
    });
  });
});

describe("on the interface's API (2023)", () => {
  it("each kind fails at preview saying it needs the current API, and nothing is written", async () => {
    const kinds = [
      ["Prompt", { content: "Hello." }],
      ["VectorDatabase", { index: "i", apiKey: PINECONE_KEY, apiEnvironment: "e" }],
      ["AccountConnection", { type: "account_connection_openai", openaiApiKey: OPENAI_KEY }],
    ] as const;
    for (const [kind, inputs] of kinds) {
      const checked = await runtimeFor(kind).check(settings("2023", old.url), {}, inputs);
      expect(
        checked.failures?.map((f) => f.reason),
        kind,
      ).toEqual([
        expect.stringMatching(new RegExp(`^voiceagent:${kind} needs the current API \\(2024\\).*nothing was sent`)),
      ]);
      expect(leaked(JSON.stringify(checked.failures))).toEqual([]);
    }
    expect(old.stats.byRoute["POST /v1/prompts/create"]).toBeUndefined();
  });

  it("a lookup says the service lacks the collection, not that the object is missing", async () => {
    const client = createClient({ baseUrl: old.url, token, api: "2023" });
    const getPrompt = FUNCTIONS.find((f) => f.name === "getPrompt");
    const err = await getPrompt?.run(client, { id: randomUUID() }).catch((e: unknown) => e);
    expect(String(err)).toMatch(/getPrompt needs the current API \(2024\).*nothing was changed/);
  });
});

describe("lookups", () => {
  it("find the objects, with every credential marked secret in their results", async () => {
    const s = settings("2024");
    await runtimeFor("VectorDatabase").create(s, { index: "lookup-index", apiKey: PINECONE_KEY, apiEnvironment: "e" });
    const made = await runtimeFor("AccountConnection").create(s, {
      type: "account_connection_openai",
      openaiApiKey: OPENAI_KEY,
    });
    const client = createClient({ baseUrl: emu.url, token, api: "2024" });
    const fn = (name: string) => {
      const f = FUNCTIONS.find((x) => x.name === name);
      if (!f) throw new Error(`no function ${name}`);
      return f;
    };
    expect(await fn("getVectorDatabase").run(client, { index: "lookup-index" })).toMatchObject({
      index: "lookup-index",
      apiKey: PINECONE_KEY,
    });
    const conns = await fn("getAccountConnections").run(client, { type: "account_connection_openai" });
    expect(conns.accountConnections).toEqual(expect.arrayContaining([expect.objectContaining({ id: made.id })]));
    expect(await fn("getAccountConnection").run(client, { id: made.id })).toMatchObject({ openaiApiKey: OPENAI_KEY });
    expect(await fn("getPrompts").run(client, {})).toHaveProperty("prompts");
    expect(secretPaths(fn("getVectorDatabase").info.result)).toEqual([["apiKey"]]);
    expect(secretPaths(fn("getAccountConnection").info.result)).toEqual([["openaiApiKey"], ["twilioAuthToken"]]);
    expect(secretPaths(fn("getAccountConnections").info.result)).toEqual([
      ["accountConnections", "*", "openaiApiKey"],
      ["accountConnections", "*", "twilioAuthToken"],
    ]);
  });

  it("the package schema marks every credential secret, as input and output", () => {
    const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, "provider", "schema.json"), "utf8"));
    for (const [kind, prop] of [
      ["VectorDatabase", "apiKey"],
      ["AccountConnection", "openaiApiKey"],
      ["AccountConnection", "twilioAuthToken"],
    ] as const) {
      const r = schema.resources[`voiceagent:index:${kind}`];
      expect(r.inputProperties[prop], `${kind}.${prop}`).toMatchObject({ secret: true });
      expect(r.properties[prop], `${kind}.${prop}`).toMatchObject({ secret: true });
    }
  });
});

describe("exactly once, when create replies are lost", () => {
  it("two identical prompts whose creates both lost their replies make two prompts, one each", async () => {
    const lossy = await startEmulator({
      tokens: [token],
      api: "2024",
      faults: [{ route: "/v1/prompts/create", method: "POST", phase: "after", reset: true, count: 2 }],
    });
    try {
      const s = settings("2024", lossy.url);
      const same = { content: `Identical ${randomUUID()}` };
      const made = await Promise.all([runtimeFor("Prompt").create(s, same), runtimeFor("Prompt").create(s, same)]);
      // The order the test relies on happened: both creates were committed and lost their replies.
      expect(lossy.stats.faults.after["POST /v1/prompts/create"]).toBe(2);
      expect(lossy.stats.byRoute["POST /v1/prompts/create"]).toBe(2);
      const client = createClient({ baseUrl: lossy.url, token, api: "2024" });
      const all = (await client.prompts.list.all()).filter((p) => p.content === same.content);
      expect(all).toHaveLength(2);
      expect(new Set(made.map((m) => m.id))).toEqual(new Set(all.map((p) => p.id)));
    } finally {
      await lossy.close();
    }
  });

  it("an account connection whose create lost its reply is adopted from the list, not made again", async () => {
    const lossy = await startEmulator({
      tokens: [token],
      api: "2024",
      faults: [{ route: "/v1/account_connections/create", method: "POST", phase: "after", reset: true, count: 1 }],
    });
    try {
      const made = await runtimeFor("AccountConnection").create(settings("2024", lossy.url), {
        type: "account_connection_openai",
        openaiApiKey: OPENAI_KEY,
      });
      expect(lossy.stats.faults.after["POST /v1/account_connections/create"]).toBe(1);
      expect(lossy.stats.byRoute["POST /v1/account_connections/create"]).toBe(1);
      const all = await createClient({ baseUrl: lossy.url, token, api: "2024" }).account_connections.list.all();
      expect(all.map((c) => c.id)).toEqual([made.id]);
    } finally {
      await lossy.close();
    }
  });
});
