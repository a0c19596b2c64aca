// The emulator's current API (2024) tried as a team would try the real service: with the service's
// own published client, vocode-api 0.0.48 from PyPI, driving every route it has (voices, actions,
// webhooks, prompts, account connections and their steering pool, vector databases, agents with
// every field, numbers bought, linked, updated and cancelled, calls created, read, listed and ended,
// usage). One Python run (vocode-sdk/drive.py); each step's parsed answer is checked here against
// what the script sent. Before issue 35's emulator work, 18 of these steps passed: calls could not
// be parsed (0.0.48 requires telephony_provider and agent_phone_number) and the rest answered 404.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "voiceagent-emulator";
import { vocodeSdkPython } from "../helpers/vocode-sdk.js";

const run = promisify(execFile);
const token = `sdk-${randomUUID()}`;
// Secret by nature: none may reach the emulator's log.
const secrets = {
  openaiKey: `sk-openai-${randomUUID()}`,
  openaiKey2: `sk-openai-${randomUUID()}`,
  twilioToken: `twilio-token-${randomUUID()}`,
  pineconeKey: `pinecone-${randomUUID()}`,
};
const linkNumber = "+14155550199";

interface Step {
  step: string;
  ok: boolean;
  got?: unknown;
  error?: string;
}

let emu: RunningEmulator;
const log: string[] = [];
let steps: Map<string, Step>;

beforeAll(async () => {
  const python = await vocodeSdkPython();
  emu = await startEmulator({
    tokens: [token],
    seed: true,
    validateResponses: true,
    api: "2024",
    logger: { level: "info", stream: { write: (line: string) => void log.push(line) } },
  });
  const script = path.join(import.meta.dirname, "vocode-sdk", "drive.py");
  const { stdout } = await run(python, [script, emu.url, token, JSON.stringify({ ...secrets, linkNumber })], {
    timeout: 60_000,
    env: { ...process.env, PYTHONWARNINGS: "ignore" },
  });
  const parsed: Step[] = stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
  steps = new Map(parsed.map((s) => [s.step, s]));
}, 240_000);
afterAll(() => emu?.close());

/** Every call the script makes, with what its parsed answer must hold (from what the script sent). */
const expected: [string, unknown][] = [
  ["voices.create", { type: "voice_rime", speed_alpha: 1.2, model_id: "mist" }],
  ["voices.get", { speaker: "river" }],
  ["voices.list", { has: true }],
  ["voices.update", { type: "voice_eleven_labs", voice_id: "rachel", stability: 0.4 }],
  ["voices.update.partial", { voice_id: "rachel", stability: 0.4, similarity_boost: 0.9 }],
  ["voices.update.retype_incomplete", { status: 422, loc: ["body", "speaker"] }],
  ["voices.create.eleven_labs", { similarity_boost: 0.7, optimize_streaming_latency: 2 }],
  ["actions.create", { type: "action_end_conversation" }],
  ["actions.get", { type: "action_end_conversation" }],
  ["actions.list", { has: true }],
  ["actions.update", { type: "action_end_conversation" }],
  ["webhooks.create", { url: "https://hooks.example.com/a" }],
  ["webhooks.get", { url: "https://hooks.example.com/a" }],
  ["webhooks.list", { has: true }],
  ["webhooks.update", { url: "https://hooks.example.com/b" }],
  ["prompts.create", { content: "Eres una recepcionista.", fields: ["email"] }],
  ["prompts.get", { context_endpoint: "https://ctx.example.com/prompt" }],
  ["prompts.list", { has: true }],
  ["prompts.update", { content: "Eres amable." }],
  ["account_connections.create.openai", { type: "account_connection_openai" }],
  ["account_connections.create.twilio", { type: "account_connection_twilio", steering_pool: [], any_caller_id: true }],
  ["account_connections.get", { sid: "AC123" }],
  ["account_connections.list", { has: true }],
  ["account_connections.update", { type: "account_connection_openai" }],
  ["vector_databases.create", { index: "faq" }],
  ["vector_databases.get", { env: "us-east-1" }],
  ["vector_databases.list", { has: true }],
  ["vector_databases.update", { index: "faq-2" }],
  [
    "agents.create",
    {
      language: "es",
      // The agent refers to the prompt object: it reads back that prompt, as updated.
      prompt_content: "Eres amable.",
      llm_fallback: "azure",
      llm_temperature: 0.3,
      idle_time_seconds: 20,
    },
  ],
  ["agents.get", { name: "Recepción" }],
  ["agents.list", {}],
  ["agents.update", { language: "fr", interrupt_sensitivity: "low", name: "Recepción" }],
  ["numbers.buy", { active: true }],
  ["numbers.link", { number: linkNumber, provider: "twilio" }],
  ["numbers.get", { number: linkNumber }],
  ["numbers.list", { has: true }],
  ["numbers.update", { label: "front desk", outbound_only: true }],
  ["account_connections.add_to_steering_pool", { pool: [linkNumber] }],
  ["account_connections.remove_from_steering_pool", { pool: [] }],
  ["calls.create", { telephony_provider: "twilio", agent_phone_number: linkNumber, on_no_human_answer: "hangup" }],
  ["calls.get", { status: "not_started" }],
  ["calls.list", { has: true }],
  ["calls.end", { status: "ended" }],
  ["numbers.cancel", { active: false }],
  ["usage.get", { plan_type: "plan_developer", minutes: 0 }],
];

describe("vocode-api 0.0.48 against the emulator's current API", () => {
  it("ran every step, and nothing else", () => {
    expect([...steps.keys()].sort()).toEqual(expected.map(([s]) => s).sort());
  });

  it.each(expected)("%s works and its answer holds what was sent", (name, want) => {
    const step = steps.get(name);
    expect(step, `${name} did not run`).toBeDefined();
    expect(step?.error).toBeUndefined();
    expect(step?.ok).toBe(true);
    expect(step?.got).toMatchObject(want as object);
  });

  it("links references by id: the agent's prompt, vector database and OpenAI connection, the number's and call's Twilio connection", () => {
    const agent = steps.get("agents.create")?.got as Record<string, unknown>;
    const listed = steps.get("agents.list")?.got as Record<string, unknown>;
    // A list page's agent names its prompt object by id, the full agent embeds that same object.
    expect(listed.prompt).toBe(agent.prompt_id);
    expect(agent.vector_database).toEqual(expect.any(String));
    expect(agent.openai_account_connection).toEqual(expect.any(String));
    const link = steps.get("numbers.link")?.got as Record<string, unknown>;
    const call = steps.get("calls.create")?.got as Record<string, unknown>;
    expect(link.connection).toEqual(expect.any(String));
    expect(call.connection).toBe(link.connection);
  });

  it("never writes a secret to its log", () => {
    const text = log.join("");
    // The log is on: the run's requests are in it, so an empty log cannot pass this.
    expect(text).toContain("/v1/account_connections/create");
    for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
  });
});
