// The Fleet the plugin serves (voiceagent:index:Fleet, plugin/construct.ts) in a project of another
// language, as its users run it: the fleet's document in the stack file (`<project>:fleet`, one
// path set with --secret), the program only passing it to the component. One scenario, run by
// each language's test on its own stack (test/yaml, test/sdk): the current API's production setup
// (docs/current-kinds.md) as a fleet, against an emulator of the current API.
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { createClient } from "pulumi-voiceagent/client";
import { startEmulator } from "voiceagent-emulator";

/** Change counts without "same". */
type Counts = Record<string, number>;

/** How a project runs a program whose Fleet takes the stack's `fleet` config value. */
export interface ServedFleetDriver {
  /** `pulumi config set [--secret] [--path]` on the stack. */
  set(key: string, value: string, opts?: { secret?: boolean; path?: boolean }): Promise<void>;
  /** `pulumi config rm`, ignoring a key that is not set. */
  rm(key: string): Promise<void>;
  /** Several keys set in one command (`config set-all [--path]`): each secret or not. */
  setAll(values: Record<string, { value: string; secret?: boolean }>, opts?: { path?: boolean }): Promise<void>;
  /** The stack file (Pulumi.<stack>.yaml), whose `<project>:fleet` the scenario writes. */
  stackFile: string;
  /** The project's name: the fleet's config namespace. */
  project: string;
  /** Switches the program to one declaring `new Fleet("fleet", { fleet: <config fleet> })` and exporting its ids as `ids`; returns the undo. */
  use(): Promise<() => Promise<void>>;
  up(refresh?: boolean): Promise<{ changes: Counts; outputs: Record<string, unknown> }>;
  preview(refresh?: boolean): Promise<Counts>;
  /** `pulumi destroy --yes`: its change counts and what it printed. */
  destroy(): Promise<{ changes: Counts; printed: string }>;
  /** Where `secret` appears in plain text: export, backend files, project files, printed text. */
  plaintext(secret: string): Promise<string[]>;
  /** The stack's resources as `pulumi stack export` lists them: type, URN and whether their inputs hold a secret. */
  resources(): Promise<{ type: string; urn: string; inputs: Record<string, unknown> }[]>;
  /** The settings of the stack before the test, put back after it. */
  before: { baseUrl: string; token: string };
}

const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const isSecret = (v: unknown) => typeof v === "object" && v !== null && Object.values(v).includes(SECRET_SIG);

/** The fleet's document: docs/current-kinds.md's production setup, a voice named by its UUID. */
function document(voice: string, number: string) {
  return {
    prompts: {
      booking: {
        content: "You book visits for the clinic. Ask for the caller's email.",
        collectFields: [{ name: "email", label: "Email address", fieldType: "field_type_email" }],
      },
    },
    vectorDatabases: { faq: { index: "clinic-faq", apiEnvironment: "us-east-1-aws" } },
    accountConnections: { openai: { type: "account_connection_openai" } },
    agents: {
      recepcion: {
        promptId: "booking",
        voice,
        name: "Recepción",
        language: "es",
        interruptSensitivity: "high",
        conversationSpeed: 1.1,
        idleTimeSeconds: 20,
        llmFallback: { provider: "azure", modelName: "gpt-4o-mini" },
        deepgramKeywords: { cita: 2 },
        vectorDatabase: "faq",
        openaiAccountConnection: "openai",
      },
    },
    lines: { main: { number, agent: "recepcion" } },
  };
}

/** Edits the stack file's fleet value in place: values set with --secret stay the ciphertext they are. */
function editStackFleet<D>(run: ServedFleetDriver, edit: (fleet: D) => void): void {
  const file = (parse(readFileSync(run.stackFile, "utf8")) ?? {}) as { config?: Record<string, unknown> };
  const config = { ...file.config };
  const name = `${run.project}:fleet`;
  const fleet = (config[name] ?? {}) as D;
  edit(fleet);
  config[name] = fleet;
  writeFileSync(run.stackFile, stringify({ ...file, config }));
}

/** Puts the stack's settings back as they were before the test, in one command. */
function restore(run: ServedFleetDriver): Promise<void> {
  return run.setAll({
    "voiceagent:baseUrl": { value: run.before.baseUrl },
    "voiceagent:token": { value: run.before.token, secret: true },
  });
}

/** Registers the scenario's test on a stack its language's earlier tests left empty. */
export function servedFleetScenario(run: ServedFleetDriver): void {
  it("a served Fleet from the stack file: up; a hand edit seen by preview --refresh, put back by up --refresh; " +
    "a rename with `was` is no change (a no-change preview); secrets in no plaintext place; destroy says what it leaves", async () => {
    const token = `fleet-${randomUUID()}`;
    const prompt = `You take messages for the night shift (${randomUUID()}).`;
    const key = `pc-${randomUUID()}`;
    const emu = await startEmulator({ tokens: [token], seed: true, api: "2024" });
    const seeds = emu.seeds.get(token)!;
    const service = async (route: string, body?: unknown): Promise<Record<string, unknown>> => {
      const res = await fetch(`${emu.url}${route}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`${route} answered ${res.status}: ${JSON.stringify(json)}`);
      return json;
    };
    const boundTo = async (n: string) =>
      (await createClient({ baseUrl: emu.url, token }).numbers.get(n)).inbound_agent?.id;
    const original = readFileSync(run.stackFile, "utf8");
    type Doc = Omit<ReturnType<typeof document>, "agents"> & { agents: Record<string, Record<string, unknown>> };
    const editFleet = (edit: (fleet: Doc) => void) => editStackFleet(run, edit);
    const undo = await run.use();
    try {
      await run.setAll({
        "voiceagent:baseUrl": { value: emu.url },
        "voiceagent:token": { value: token, secret: true },
        "voiceagent:api": { value: "2024" },
      });
      const doc = document(seeds.voices[0]!, seeds.numbers[0]!);
      editFleet((f) =>
        Object.assign(f, doc, {
          agents: { ...doc.agents, night: { voice: seeds.voices[0]!, initialMessage: "Hola." } },
        }),
      );
      // The night agent's prompt and the Pinecone key, set as secrets: the whole value is secret then.
      await run.setAll(
        {
          "fleet.agents.night.prompt": { value: prompt, secret: true },
          "fleet.vectorDatabases.faq.apiKey": { value: key, secret: true },
          "fleet.accountConnections.openai.openaiApiKey": { value: `sk-${randomUUID()}`, secret: true },
        },
        { path: true },
      );

      const up = await run.up();
      // A prompt, a vector database, a connection, two agents, a binding, and the component.
      expect(up.changes).toEqual({ create: 7 + 1 });
      const ids = up.outputs.ids as Record<string, Record<string, string>>;
      const agentId = ids.agents?.recepcion ?? "";
      const agent = await service(`/v1/agents?id=${agentId}`);
      expect(agent.llm_fallback).toEqual({ provider: "azure", model_name: "gpt-4o-mini" });
      expect(await boundTo(seeds.numbers[0]!)).toBe(agentId);
      // The children are the resources a program makes: native kinds named fleet-<key> under the component,
      // each value secret (the fleet's value held a secret).
      const resources = await run.resources();
      const component = resources.find((r) => r.type === "voiceagent:index:Fleet");
      expect(component?.urn).toMatch(/::fleet$/);
      const night = resources.find((r) => r.urn.endsWith("voiceagent:index:Fleet$voiceagent:index:Agent::fleet-night"));
      expect(isSecret(night?.inputs.prompt)).toBe(true);
      expect(isSecret(night?.inputs.initialMessage)).toBe(true);

      // Someone edits the fallback's model on the service: seen at preview --refresh. (That a preview
      // without --refresh misses it is the engine's: test/yaml/yaml.test.ts's "preview
      // --expect-no-changes ..." proves it; the no-change preview is the rename's below, a change
      // the children showed with no edit would show there, or as a second update here.)
      await service(`/v1/agents/update?id=${agentId}`, { llm_fallback: { provider: "azure", model_name: "gpt-4.1" } });
      expect(await run.preview(true)).toEqual({ update: 1 });
      expect((await run.up(true)).changes).toMatchObject({ update: 1 });

      // A key renamed with `was` keeps its object: no change.
      editFleet((f) => {
        const { recepcion, ...others } = f.agents;
        f.agents = { ...others, "front-desk": { ...recepcion, was: ["recepcion"] } };
        f.lines.main.agent = "front-desk";
      });
      expect(await run.preview()).toEqual({});

      for (const secret of [prompt, key, token]) expect(await run.plaintext(secret)).toEqual([]);
      const destroyed = await run.destroy();
      expect(destroyed.changes).toEqual({ delete: 7 + 1 });
      // Destroy forgets the agents (the service has no delete) and says so, naming each.
      expect(destroyed.printed).toContain(agentId);
      expect((await service(`/v1/agents?id=${agentId}`)).id).toBe(agentId);
    } finally {
      writeFileSync(run.stackFile, original);
      await run.rm("voiceagent:api");
      await restore(run);
      await undo();
      await emu.close();
    }
  }, 600_000);
}

/**
 * The interface API's fleet (/work/shared/interface.md: voices, actions, webhooks, agents, lines)
 * through the same component, on an emulator of the interface, on a stack the scenario above left
 * empty: up, an empty preview, the secret prompt in no plaintext place, destroy.
 */
export function servedInterfaceFleetScenario(run: ServedFleetDriver): void {
  it("a served Fleet of the interface API's kinds: up makes and binds them; the next preview is empty; destroy removes them", async () => {
    const token = `fleet-2023-${randomUUID()}`;
    const prompt = `You answer the support line (${randomUUID()}).`;
    const emu = await startEmulator({ tokens: [token], seed: true });
    const [number] = emu.seeds.get(token)!.numbers;
    const client = createClient({ baseUrl: emu.url, token });
    const original = readFileSync(run.stackFile, "utf8");
    const undo = await run.use();
    try {
      await run.rm("voiceagent:api");
      await run.setAll({
        "voiceagent:baseUrl": { value: emu.url },
        "voiceagent:token": { value: token, secret: true },
      });
      editStackFleet<Record<string, unknown>>(run, (f) =>
        Object.assign(f, {
          voices: { warm: { voiceName: "alloy", pitch: 0, rate: 1 } },
          actions: { "hang-up": { type: "action_end_conversation" } },
          webhooks: { events: { url: "https://hooks.example.com/va-events", subscriptions: ["event_message"] } },
          agents: {
            support: { voice: "warm", actions: ["hang-up"], webhook: "events", initialMessage: "Hello, support." },
          },
          lines: { main: { number, agent: "support" } },
        }),
      );
      await run.set("fleet.agents.support.prompt", prompt, { secret: true, path: true });

      const up = await run.up();
      // A voice, an action, a webhook, an agent, a binding and the component; the stack.
      expect(up.changes).toEqual({ create: 6 + 1 });
      const ids = up.outputs.ids as Record<string, Record<string, string>>;
      const agent = await client.agents.get(ids.agents?.support ?? "");
      expect(agent.prompt).toBe(prompt);
      expect(agent.voice.id).toBe(ids.voices?.warm);
      expect(agent.actions.map((a) => a.id)).toEqual([ids.actions?.["hang-up"]]);
      expect(agent.webhook?.id).toBe(ids.webhooks?.events);
      expect((await client.numbers.get(number!)).inbound_agent?.id).toBe(agent.id);
      expect(await run.preview()).toEqual({});
      for (const secret of [prompt, token]) expect(await run.plaintext(secret)).toEqual([]);
      expect((await run.destroy()).changes).toEqual({ delete: 6 + 1 });
      expect((await client.numbers.get(number!)).inbound_agent ?? null).toBeNull();
    } finally {
      writeFileSync(run.stackFile, original);
      await restore(run);
      await undo();
      await emu.close();
    }
  }, 600_000);
}
