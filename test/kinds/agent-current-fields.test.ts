// The Agent's fields only the current API (2024) has (issue 35), driven in-process the way the
// engine drives the dynamic provider's runtime, against the emulator's 2024 dialect: each field is
// sent on create and update (what the service holds is read over raw HTTP, not through the
// provider), read back, and a hand edit of each shows as a difference; a value the service added to
// an enumeration reads as drift, not a failure; bad values are refused at check naming the field;
// on the 2023 interface a program that sets them fails at check, naming them, before any write.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { createClient } from "../../provider/client/index.js";
import { runtimeFor as runtimeIn } from "../../provider/dynamic/runtimes.js";
import { Host } from "../../provider/host.js";
import { GENERATION_PROBE, routesSince } from "../helpers/generation-probe.js";
import { inProcessPlugin } from "../helpers/plugin-harness.js";

const token = `agent-cur-${randomUUID()}`;
const token2023 = `agent-old-${randomUUID()}`;
let emu: RunningEmulator;
let old: RunningEmulator;
/** This file is one provider process: one host. */
const host = new Host();
const runtimeFor = (kind: Parameters<typeof runtimeIn>[0]) => runtimeIn(kind, host);
const agent = runtimeFor("Agent");

/** Settings as `configure` captures them. */
const settingsOf = (e: RunningEmulator, t: string, api: string) => ({
  baseUrl: e.url,
  token: t,
  config: { get: (k: string) => (k === "voiceagent:api" ? api : undefined) },
});
const s = () => settingsOf(emu, token, "2024");
const reasons = (r: { failures?: { reason: string }[] | undefined }) => (r.failures ?? []).map((f) => f.reason);

/** A raw call to the emulator, as the dashboard or another tool would make it. */
async function raw(method: "GET" | "POST", path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  if (typeof json !== "object" || json === null) throw new Error(`${method} ${path}: not an object`);
  return Object.fromEntries(Object.entries(json));
}
const idOf = (o: Record<string, unknown>) => String(o.id);

let voice: string;
let prompt: string;
let otherPrompt: string;
let vdb: string;
let otherVdb: string;
let oai: string;

beforeAll(async () => {
  [emu, old] = await Promise.all([
    startEmulator({ tokens: [token], seed: true, api: "2024" }),
    startEmulator({ tokens: [token2023], seed: true, api: "2023" }),
  ]);
  voice = String(emu.seeds.get(token)?.voices[0]);
  prompt = idOf(await raw("POST", "/v1/prompts/create", { content: "Eres la recepción de la clínica." }));
  otherPrompt = idOf(await raw("POST", "/v1/prompts/create", { content: "Eres otra cosa." }));
  const pinecone = (index: string) => ({
    type: "vector_database_pinecone",
    index,
    api_key: "pc-k",
    api_environment: "us",
  });
  vdb = idOf(await raw("POST", "/v1/vector_databases/create", pinecone("clinica")));
  otherVdb = idOf(await raw("POST", "/v1/vector_databases/create", pinecone("otra")));
  oai = idOf(
    await raw("POST", "/v1/account_connections/create", {
      type: "account_connection_openai",
      credentials: { openai_api_key: "sk-test" },
    }),
  );
});
afterAll(async () => {
  await Promise.all([emu?.close(), old?.close()]);
});

/** A Spanish agent with every current-API field set. */
const spanish = () => ({
  promptId: prompt,
  voice,
  name: "Recepción",
  language: "es",
  interruptSensitivity: "high",
  endpointingSensitivity: "relaxed",
  ivrNavigationMode: "off",
  conversationSpeed: 1.25,
  initialMessageDelay: 0.5,
  idleTimeSeconds: 15,
  askIfHumanPresentOnIdle: true,
  noiseSuppression: true,
  runDoNotCallDetection: true,
  contextEndpoint: "https://ctx.example.com/clinica",
  llmTemperature: 0.4,
  openaiModelNameOverride: "gpt-4o",
  llmFallback: { provider: "azure", modelName: "gpt-4o-mini" },
  deepgramKeywords: { Ibuprofeno: 2, Paracetamol: 1.5 },
  vectorDatabase: vdb,
  openaiAccountConnection: oai,
});

/** What the service must hold for `spanish()`, written out in its own words (snake_case, references by id). */
const spanishOnTheWire = () => ({
  name: "Recepción",
  language: "es",
  interrupt_sensitivity: "high",
  endpointing_sensitivity: "relaxed",
  ivr_navigation_mode: "off",
  conversation_speed: 1.25,
  initial_message_delay: 0.5,
  idle_time_seconds: 15,
  ask_if_human_present_on_idle: true,
  noise_suppression: true,
  run_do_not_call_detection: true,
  context_endpoint: "https://ctx.example.com/clinica",
  llm_temperature: 0.4,
  openai_model_name_override: "gpt-4o",
  llm_fallback: { provider: "azure", model_name: "gpt-4o-mini" },
  deepgram_keywords: { Ibuprofeno: 2, Paracetamol: 1.5 },
  prompt: expect.objectContaining({ id: prompt }),
  vector_database: expect.objectContaining({ id: vdb }),
  openai_account_connection: expect.objectContaining({ id: oai }),
});

/** Every field, changed to another valid value (llmTemperature aside: it replaces). */
const edited = () => ({
  ...spanish(),
  promptId: otherPrompt,
  name: "Recepción 2",
  language: "pt",
  interruptSensitivity: "low",
  endpointingSensitivity: "sensitive",
  ivrNavigationMode: "default",
  conversationSpeed: 0.9,
  initialMessageDelay: 2,
  idleTimeSeconds: 30,
  askIfHumanPresentOnIdle: false,
  noiseSuppression: false,
  runDoNotCallDetection: false,
  contextEndpoint: "https://ctx.example.com/otra",
  openaiModelNameOverride: "gpt-4o-mini",
  llmFallback: { provider: "openai", modelName: "gpt-4.1" },
  deepgramKeywords: { Aspirina: 3 },
  vectorDatabase: otherVdb,
});
/** The fields `edited()` changes (known once the objects it refers to are made). */
const changedByEdit = () =>
  Object.keys(edited()).filter(
    (k) => JSON.stringify(Reflect.get(edited(), k)) !== JSON.stringify(Reflect.get(spanish(), k)),
  );

describe("the Agent's current-API fields (2024)", () => {
  it("each is sent on create, read back as declared, and an unchanged program is no change", async () => {
    const inputs = spanish();
    expect(reasons(await agent.check(s(), {}, inputs))).toEqual([]);
    const made = await agent.create(s(), inputs);
    expect(await raw("GET", `/v1/agents?id=${made.id}`)).toMatchObject(spanishOnTheWire());
    expect(made.outs).toEqual({ ...inputs, actions: [], userId: expect.any(String) });
    expect(made.outs).not.toHaveProperty("prompt");
    expect(await agent.diff(s(), made.id, made.outs, inputs)).toMatchObject({ changes: false });
    const read = await agent.read(s(), made.id, made.outs);
    expect(read.props).toEqual(made.outs);
  });

  it("each is sent on update; llmTemperature replaces (0.0.48's update has no llm_temperature)", async () => {
    const made = await agent.create(s(), spanish());
    const diff = await agent.diff(s(), made.id, made.outs, edited());
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    expect([...diff.changed].sort()).toEqual(changedByEdit().sort());
    const updated = await agent.update(s(), made.id, made.outs, edited());
    expect(await raw("GET", `/v1/agents?id=${made.id}`)).toMatchObject({
      name: "Recepción 2",
      language: "pt",
      interrupt_sensitivity: "low",
      endpointing_sensitivity: "sensitive",
      ivr_navigation_mode: "default",
      conversation_speed: 0.9,
      initial_message_delay: 2,
      idle_time_seconds: 30,
      ask_if_human_present_on_idle: false,
      noise_suppression: false,
      run_do_not_call_detection: false,
      context_endpoint: "https://ctx.example.com/otra",
      openai_model_name_override: "gpt-4o-mini",
      llm_fallback: { provider: "openai", model_name: "gpt-4.1" },
      deepgram_keywords: { Aspirina: 3 },
      prompt: expect.objectContaining({ id: otherPrompt }),
      vector_database: expect.objectContaining({ id: otherVdb }),
    });
    expect(updated.outs).toEqual({ ...edited(), actions: [], userId: expect.any(String) });
    const warmer = await agent.diff(s(), made.id, updated.outs ?? {}, { ...edited(), llmTemperature: 0.9 });
    expect(warmer).toMatchObject({ changes: true, replaces: ["llmTemperature"] });
  });

  it("a hand edit of each, and a value the service added to an enumeration, is read back and shown as a difference", async () => {
    const inputs = spanish();
    const made = await agent.create(s(), inputs);
    // Someone edits every field on the service (the dashboard's update), and the temperature,
    // which no update takes, behind it; then the service starts answering a language this release
    // does not know.
    const e = edited();
    await raw("POST", `/v1/agents/update?id=${made.id}`, {
      prompt: e.promptId,
      name: e.name,
      interrupt_sensitivity: e.interruptSensitivity,
      endpointing_sensitivity: e.endpointingSensitivity,
      ivr_navigation_mode: e.ivrNavigationMode,
      conversation_speed: e.conversationSpeed,
      initial_message_delay: e.initialMessageDelay,
      idle_time_seconds: e.idleTimeSeconds,
      ask_if_human_present_on_idle: e.askIfHumanPresentOnIdle,
      noise_suppression: e.noiseSuppression,
      run_do_not_call_detection: e.runDoNotCallDetection,
      context_endpoint: e.contextEndpoint,
      openai_model_name_override: e.openaiModelNameOverride,
      llm_fallback: { provider: e.llmFallback.provider, model_name: e.llmFallback.modelName },
      deepgram_keywords: e.deepgramKeywords,
      vector_database: e.vectorDatabase,
    });
    const userId = String(made.outs.userId);
    const rec = emu.store.get<{ id: string; user_id: string; current: Record<string, unknown> }>(
      "agent",
      userId,
      made.id,
    );
    if (!rec) throw new Error("the emulator lost the agent");
    emu.store.update("agent", { ...rec, current: { ...rec.current, language: "tlh", llm_temperature: 1.1 } });

    const read = await agent.read(s(), made.id, made.outs);
    expect(read.props).toMatchObject({ ...e, language: "tlh", llmTemperature: 1.1 });
    const drift = await agent.diff(s(), made.id, read.props ?? {}, inputs);
    expect([...drift.changed].sort()).toEqual([...new Set([...changedByEdit(), "language", "llmTemperature"])].sort());
    expect(drift.replaces).toEqual(["llmTemperature"]);
  });

  it("refuses at check, naming the field, every value the service's types do not allow", async () => {
    const bad = {
      ...spanish(),
      language: "xx",
      interruptSensitivity: "medium",
      endpointingSensitivity: "fast",
      ivrNavigationMode: "on",
      conversationSpeed: 0,
      initialMessageDelay: -1,
      idleTimeSeconds: 2.5,
      llmTemperature: 3,
      llmFallback: { provider: "anthropic", modelName: "" },
      contextEndpoint: "ftp://ctx.example.com",
      vectorDatabase: "not-an-id",
    };
    const said = reasons(await agent.check(s(), {}, bad));
    for (const field of [
      "language",
      "interruptSensitivity",
      "endpointingSensitivity",
      "ivrNavigationMode",
      "conversationSpeed",
      "initialMessageDelay",
      "idleTimeSeconds",
      "llmTemperature",
      "llmFallback.provider",
      "llmFallback.modelName",
      "contextEndpoint",
      "vectorDatabase",
    ])
      expect(said, field).toContainEqual(expect.stringMatching(new RegExp(`^${field.replace(".", "\\.")} `)));
    expect(said.every((r) => r.endsWith("nothing was sent to the service"))).toBe(true);
    // A key the nested type does not have is named with its path, never dropped; a snake_case one
    // (a program that bypasses the SDK's key translation) is told the key to write.
    const misspelt = reasons(
      await agent.check(s(), {}, { ...spanish(), llmFallback: { provider: "azure", modelName: "m", modl: "x" } }),
    );
    expect(misspelt).toEqual([
      expect.stringMatching(/^llmFallback has no key "modl": its keys are provider, modelName;/),
    ]);
    const snake = reasons(
      await agent.check(s(), {}, { ...spanish(), llmFallback: { provider: "azure", model_name: "m" } }),
    );
    expect(snake).toContainEqual(expect.stringMatching(/^llmFallback has no key "model_name" \(write modelName\)/));
  });

  it("takes exactly one of prompt and promptId, counting one not known yet", async () => {
    const { promptId: _p, ...noPrompt } = spanish();
    expect(reasons(await agent.check(s(), {}, noPrompt))).toEqual([expect.stringMatching(/^prompt is required/)]);
    expect(reasons(await agent.check(s(), {}, { ...spanish(), prompt: "Hola" }))).toEqual([
      expect.stringMatching(/^prompt and promptId are both set/),
    ]);
    const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    expect(reasons(await agent.check(s(), {}, { ...spanish(), promptId: UNKNOWN }))).toEqual([]);
  });

  it("on the 2023 interface, a program that sets them fails at check naming each, having sent nothing but the probe", async () => {
    const settings = settingsOf(old, token2023, "auto");
    const oldVoice = String(old.seeds.get(token2023)?.voices[0]);
    const before = { ...old.stats.byRoute };
    const { promptId: _p, vectorDatabase: _v, openaiAccountConnection: _o, ...fields } = spanish();
    const checked = await agent.check(settings, {}, { ...fields, prompt: "Eres la recepción.", voice: oldVoice });
    expect(reasons(checked)).toEqual([
      expect.stringMatching(
        new RegExp(
          /^name, language, interruptSensitivity, .*llmFallback, deepgramKeywords: /.source +
            /these need the current API \(2024\), and the service speaks the 2023 interface/.source,
        ),
      ),
    ]);
    expect(routesSince(old.stats.byRoute, before)).toEqual({ [GENERATION_PROBE]: 1 });
    // Without them it passes; and the client refuses them itself, before sending, were a check skipped.
    expect(reasons(await agent.check(settings, {}, { prompt: "Eres la recepción.", voice: oldVoice }))).toEqual([]);
    const client = createClient({ baseUrl: old.url, token: token2023, api: "2023" });
    await expect(client.agents.create({ prompt: "Hola", voice: oldVoice, language: "es" })).rejects.toThrow(
      /the 2023 API has no language/,
    );
    expect(Object.keys(routesSince(old.stats.byRoute, before)).filter((r) => r.startsWith("POST"))).toEqual([]);
  });
});

describe("the Voice's 2024 tuning fields", () => {
  const voice = runtimeFor("Voice");
  /** Each 2024 type with every tuning field it has, and what the service must hold for it. */
  const TYPES = [
    {
      inputs: {
        type: "voice_eleven_labs",
        vendorVoiceId: "rachel",
        stability: 0.3,
        similarityBoost: 0.8,
        optimizeStreamingLatency: 2,
        experimentalInputStreaming: true,
        modelId: "eleven_turbo_v2",
      },
      wire: {
        stability: 0.3,
        similarity_boost: 0.8,
        optimize_streaming_latency: 2,
        experimental_input_streaming: true,
        model_id: "eleven_turbo_v2",
      },
      edit: { stability: 0.9 },
      editedField: "stability",
    },
    {
      inputs: {
        type: "voice_play_ht",
        vendorVoiceId: "s3://voice/jennifer",
        version: "2",
        speed: 1.1,
        quality: "premium",
        temperature: 0.7,
        topP: 0.9,
        textGuidance: 1,
        voiceGuidance: 2,
        experimentalRemoveSilence: true,
      },
      wire: {
        version: "2",
        speed: 1.1,
        quality: "premium",
        temperature: 0.7,
        top_p: 0.9,
        text_guidance: 1,
        voice_guidance: 2,
        experimental_remove_silence: true,
      },
      edit: { top_p: 0.5 },
      editedField: "topP",
    },
    {
      inputs: { type: "voice_rime", speaker: "river", speedAlpha: 1.2, modelId: "mist" },
      wire: { speed_alpha: 1.2, model_id: "mist" },
      edit: { speed_alpha: 0.8 },
      editedField: "speedAlpha",
    },
  ];

  it("each is sent on create, read back, and a hand edit of one shows as a difference", async () => {
    for (const t of TYPES) {
      expect(reasons(await voice.check(s(), {}, t.inputs)), t.inputs.type).toEqual([]);
      const made = await voice.create(s(), t.inputs);
      expect(await raw("GET", `/v1/voices?id=${made.id}`), t.inputs.type).toMatchObject(t.wire);
      expect(made.outs).toEqual({ ...t.inputs, userId: expect.any(String) });
      expect(await voice.diff(s(), made.id, made.outs, t.inputs)).toMatchObject({ changes: false });
      await raw("POST", `/v1/voices/update?id=${made.id}`, { type: t.inputs.type, ...t.edit });
      const read = await voice.read(s(), made.id, made.outs);
      const drift = await voice.diff(s(), made.id, read.props ?? {}, t.inputs);
      expect(drift.changed, t.inputs.type).toEqual([t.editedField]);
      // And the program's value is sent back by the update.
      await voice.update(s(), made.id, read.props ?? {}, t.inputs);
      expect(await raw("GET", `/v1/voices?id=${made.id}`), t.inputs.type).toMatchObject(t.wire);
    }
  });

  it("a quality the service added reads as drift, not a failure", async () => {
    const play = TYPES[1]?.inputs ?? {};
    const made = await voice.create(s(), play);
    const rec = emu.store.get<{ id: string; user_id: string }>("voice", String(made.outs.userId), made.id);
    if (!rec) throw new Error("the emulator lost the voice");
    emu.store.update("voice", { ...rec, quality: "studio" });
    const read = await voice.read(s(), made.id, made.outs);
    expect(read.props).toMatchObject({ quality: "studio" });
    expect((await voice.diff(s(), made.id, read.props ?? {}, play)).changed).toEqual(["quality"]);
  });

  it("refuses at check, naming the field, values out of range and fields of another type; on 2023 every tuning field", async () => {
    const said = reasons(
      await voice.check(
        s(),
        {},
        {
          type: "voice_play_ht",
          vendorVoiceId: "x",
          topP: 1.5,
          quality: "ultra",
          version: "3",
          speed: 0,
          stability: 0.5,
        },
      ),
    );
    for (const field of ["topP", "quality", "version", "speed"])
      expect(said, field).toContainEqual(expect.stringMatching(new RegExp(`^${field} `)));
    const other = reasons(await voice.check(s(), {}, { type: "voice_play_ht", vendorVoiceId: "x", stability: 0.5 }));
    expect(other).toEqual([expect.stringMatching(/^stability is not a field of a voice_play_ht voice/)]);
    const rime = reasons(await voice.check(s(), {}, { type: "voice_rime", speaker: "river", modelId: "v9" }));
    expect(rime).toEqual([expect.stringMatching(/^modelId of a voice_rime voice must be one of mist, v1/)]);
    const onOld = reasons(
      await voice.check(
        settingsOf(old, token2023, "2023"),
        {},
        {
          voiceName: "alloy",
          pitch: 0,
          rate: 1,
          speed: 1.1,
        },
      ),
    );
    expect(onOld).toEqual([expect.stringMatching(/^speed is not a field of a voice_base voice/)]);
  });
});

describe("the native entry (the plugin's plain provider)", () => {
  it("refuses the current-API fields at check on the 2023 interface, and takes them on 2024", async () => {
    const at = { urn: "urn:pulumi:dev::proj::voiceagent:index:Agent::r", type: "voiceagent:index:Agent" };
    const plugin = async (e: RunningEmulator, t: string) => {
      const p = inProcessPlugin().provider;
      await p.configure({ config: { baseUrl: e.url, token: t }, plainKeys: [] });
      return p;
    };
    const onOld = await plugin(old, token2023);
    const oldVoice = String(old.seeds.get(token2023)?.voices[0]);
    const refused = await onOld.check({ ...at, olds: {}, news: { prompt: "Hola", voice: oldVoice, language: "es" } });
    expect(reasons(refused)).toEqual([expect.stringMatching(/^language: it needs the current API \(2024\)/)]);
    const onNew = await plugin(emu, token);
    expect(reasons(await onNew.check({ ...at, olds: {}, news: spanish() }))).toEqual([]);
  });

  it("`pulumi import` keeps an agent's Prompt as promptId (an inline prompt as its text), so the next update sends no text", async () => {
    const at = { urn: "urn:pulumi:dev::proj::voiceagent:index:Agent::r", type: "voiceagent:index:Agent" };
    const p = inProcessPlugin().provider;
    await p.configure({ config: { baseUrl: emu.url, token, api: "2024" }, plainKeys: [] });
    const byRef = await agent.create(s(), { promptId: prompt, voice, actions: [] });
    const imported = await p.read({ ...at, id: byRef.id, properties: {}, inputs: {} });
    const inputs = imported.inputs;
    expect(inputs).toMatchObject({ promptId: prompt });
    expect(inputs).not.toHaveProperty("prompt");
    // The program `pulumi import` writes from those inputs: no change, and an update keeps the reference.
    const props = imported.properties ?? {};
    expect(await agent.diff(s(), byRef.id, props, inputs ?? {})).toMatchObject({ changes: false });
    await agent.update(s(), byRef.id, props, { ...inputs, name: "Renamed" });
    const after = await raw("GET", `/v1/agents?id=${byRef.id}`);
    expect(after.prompt).toMatchObject({ id: prompt });

    const inline = await agent.create(s(), { prompt: "Eres un agente con su propio texto.", voice, actions: [] });
    const importedInline = await p.read({ ...at, id: inline.id, properties: {}, inputs: {} });
    const inlineInputs = importedInline.inputs;
    expect(inlineInputs).toMatchObject({ prompt: "Eres un agente con su propio texto." });
    expect(inlineInputs).not.toHaveProperty("promptId");
  });
});
