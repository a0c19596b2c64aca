// The functions (lookups) in process, against the emulator on port 0: what each finds, that only
// reads are sent, paging through every page, the errors naming what was looked up or the missing
// route, argument checks before any request, and where results are secret.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { Host } from "../../provider/host.js";
import {
  invokeFunction as invokeIn,
  secretPathsOf,
  type InvokeOutcome,
} from "../../provider/resources/functions/invoke.js";
import { FUNCTIONS } from "../../provider/resources/functions/index.js";
import { markSecrets } from "../../provider/resources/kit/function.js";
import { type InvokeRequest, Secret } from "../../provider/plugin/protocol.js";
import type { Props } from "../../provider/resources/kit/kind.js";
import type { ProviderSettings } from "../../provider/resources/kit/settings.js";
import { RequestScope } from "../../provider/resources/kit/scope.js";
import { startRecordingServer } from "../helpers/recording-server.js";

let emu: RunningEmulator;
let client: VoiceAgentClient;
const token = `fn-${randomUUID()}`;
const settings = () => ({ baseUrl: emu.url, token });
/** The functions as an edge runs them: in its host (the plugin's, the program's). */
const host = new Host();
const invokeFunction = (name: string, settings: ProviderSettings, args: Props) =>
  host.run(() => invokeIn({ scope: RequestScope.of(host, settings), name, args }));
const result = (o: InvokeOutcome) => {
  if (!o.result) throw new Error(`failures: ${JSON.stringify(o.failures)}`);
  return o.result;
};
const invoke = async (name: string, args: Record<string, unknown> = {}) =>
  result(await invokeFunction(name, settings(), args));
/** Every request the emulator received since the last reset, by "METHOD /path". */
const routes = () => Object.keys(emu.stats.byRoute);

beforeAll(async () => {
  emu = await startEmulator({ tokens: [token], seed: true });
  client = createClient({ baseUrl: emu.url, token });
});
afterAll(async () => emu?.close());

describe("lookups against the emulator", () => {
  it("getVoice by name finds the one voice called alloy, by id the same voice; only reads are sent", async () => {
    emu.resetStats();
    const byName = await invoke("getVoice", { voiceName: "alloy" });
    expect(byName).toMatchObject({ voiceName: "alloy", type: "voice_base" });
    expect(await invoke("getVoice", { id: byName.id })).toEqual(byName);
    expect(emu.stats.total).toBeGreaterThan(0);
    expect(routes().filter((r) => !r.startsWith("GET "))).toEqual([]);
  });

  it("getVoice that finds none or several says how many and what it looked for", async () => {
    await expect(invoke("getVoice", { voiceName: "nobody-speaks-like-this" })).rejects.toThrow(
      /getVoice: found no voice named "nobody-speaks-like-this"/,
    );
    await client.voices.create({ voice_name: "twin", pitch: 0, rate: 1 });
    await client.voices.create({ voice_name: "twin", pitch: 1, rate: 1 });
    await expect(invoke("getVoice", { voiceName: "twin" })).rejects.toThrow(
      /getVoice: found 2 of voice named "twin".*nothing was changed/,
    );
    await expect(invoke("getAgent", { id: randomUUID() })).rejects.toThrow(
      /getAgent: found no agent with id [0-9a-f-]{36}/,
    );
  });

  it("getPhoneNumbers reads every page, each number once, and filters free and active ones", async () => {
    // More numbers than one page of 100 holds, so the pager must go past the first page.
    const added = await fetch(`${emu.url}/admin/numbers`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ count: 150, prefix: "+1555888" }),
    });
    expect(added.status).toBe(200);
    const all = (await invoke("getPhoneNumbers")).numbers as {
      id: string;
      number: string;
      active: boolean;
      inboundAgent: string | null;
    }[];
    expect(all.length).toBeGreaterThanOrEqual(154);
    expect(new Set(all.map((n) => n.id)).size).toBe(all.length);
    expect(all.map((n) => n.number)).toContain("+15558880150");
    // Bind one seeded number and cancel another: the first free active one is then the next.
    const [first, second, third] = all;
    const voice = await invoke("getVoice", { voiceName: "alloy" });
    const agent = await client.agents.create({ prompt: "p", voice: String(voice.id) });
    await client.numbers.update(first!.number, agent.id);
    await client.numbers.cancel(second!.number);
    const free = (await invoke("getPhoneNumbers", { active: true, bound: false })).numbers as { number: string }[];
    expect(free[0]?.number).toBe(third!.number);
    expect(free.map((n) => n.number)).not.toContain(first!.number);
    expect(free.map((n) => n.number)).not.toContain(second!.number);
    const bound = (await invoke("getPhoneNumbers", { bound: true })).numbers;
    expect(bound).toEqual([expect.objectContaining({ number: first!.number, inboundAgent: agent.id, active: true })]);
    // The interface's numbers are never linked (issue 35): the current API's fields read as not linked.
    expect(await invoke("getPhoneNumber", { number: first!.number })).toMatchObject({
      inboundAgent: agent.id,
      active: true,
      linked: false,
      telephonyAccountConnection: null,
    });
    expect((await invoke("getPhoneNumbers", { linked: true })).numbers).toEqual([]);
  });

  it("getCall answers a placed call's status, recording and transcript; getAccount the owner", async () => {
    const voice = await invoke("getVoice", { voiceName: "alloy" });
    const agent = await client.agents.create({ prompt: "p", voice: String(voice.id) });
    const placed = await client.calls.create({
      from_number: "+15550010004",
      to_number: "+15557654321",
      agent: agent.id,
    });
    expect(await invoke("getCall", { id: placed.id })).toMatchObject({
      id: placed.id,
      status: placed.status,
      recordingAvailable: placed.recording_available,
      agent: agent.id,
    });
    expect(await invoke("getAccount")).toEqual({ userId: placed.user_id });
  });
});

describe("arguments", () => {
  it("are checked before anything is sent: both or neither of id and voiceName, an unknown one, a bad number", async () => {
    emu.resetStats();
    const failures = async (name: string, args: Record<string, unknown>) =>
      (await invokeFunction(name, settings(), args)).failures;
    expect(await failures("getVoice", {})).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/exactly one of id and voiceName/) }),
    ]);
    expect(await failures("getVoice", { id: randomUUID(), voiceName: "alloy" })).toHaveLength(1);
    expect(await failures("getVoices", { colour: "blue" })).toEqual([expect.objectContaining({ property: "colour" })]);
    expect(await failures("getPhoneNumber", { number: "555" })).toEqual([
      expect.objectContaining({ property: "number" }),
    ]);
    expect(emu.stats.total).toBe(0);
    // An SDK sends an unset optional argument as null: that is no filter.
    const unfiltered = await invoke("getPhoneNumbers", { active: null, bound: null });
    expect(unfiltered.numbers).toEqual((await invoke("getPhoneNumbers")).numbers);
  });
});

describe("a server without the extension routes", () => {
  it("gets an error naming the route the lookup needs", async () => {
    const server = await startRecordingServer(() => ({ status: 404, json: { detail: "Not Found" } }));
    try {
      const s = { baseUrl: server.url, token: `t-${randomUUID()}` };
      await expect(invokeFunction("getVoices", s, {})).rejects.toThrow(
        /getVoices needs the service's GET \/v1\/voices\/list route/,
      );
      await expect(invokeFunction("getCall", s, { id: randomUUID() })).rejects.toThrow(
        /getCall needs the service's GET \/v1\/calls route/,
      );
      expect(server.requests.map((r) => r.method)).not.toContain("POST");
    } finally {
      await server.close();
    }
  });
});

describe("secrets in results", () => {
  it(`are a call's transcript and error message, an agent's prompt, a webhook's and an external action's URL, a prompt's text and the \
credentials of vector databases and account connections, nothing else`, () => {
    const all = Object.fromEntries(FUNCTIONS.map((f) => [f.name, secretPathsOf(f.name).map((p) => p.join("."))]));
    expect(all).toEqual({
      getVoice: [],
      getVoices: [],
      getAgent: ["prompt"],
      getAgents: ["agents.*.prompt"],
      getPhoneNumber: [],
      getPhoneNumbers: [],
      getActions: ["actions.*.url"],
      getWebhooks: ["webhooks.*.url"],
      getCall: ["transcript", "errorMessage"],
      getAccount: [],
      getUsage: [],
      getPrompt: ["content"],
      getPrompts: ["prompts.*.content"],
      getVectorDatabase: ["apiKey"],
      getVectorDatabases: ["vectorDatabases.*.apiKey"],
      getAccountConnection: ["openaiApiKey", "twilioAuthToken"],
      getAccountConnections: ["accountConnections.*.openaiApiKey", "accountConnections.*.twilioAuthToken"],
    });
  });

  it("are wrapped wherever present, in every item of a list, null included", () => {
    const wrap = (v: unknown) => ({ secret: v });
    const agents = {
      agents: [
        { id: "a", prompt: "x" },
        { id: "b", prompt: "y" },
      ],
    };
    expect(markSecrets(agents, secretPathsOf("getAgents"), wrap)).toEqual({
      agents: [
        { id: "a", prompt: { secret: "x" } },
        { id: "b", prompt: { secret: "y" } },
      ],
    });
    expect(markSecrets({ status: "ended", transcript: null }, secretPathsOf("getCall"), wrap)).toEqual({
      status: "ended",
      transcript: { secret: null },
    });
  });
});

describe("the plugin's Invoke, in plain terms", () => {
  const wrapped = (value: unknown) => new Secret(value);

  it("answers a call with its transcript and error message wrapped secret, the rest plain", async () => {
    const plugin = await import("../../provider/plugin/invoke.js");
    // As the plugin's provider runs it: in its host.
    const invoke = (settings: ProviderSettings, req: InvokeRequest, version: string) =>
      host.run(() => plugin.invoke({ scope: RequestScope.of(host, settings) }, req, version));
    const voice = await invoke(settings(), { tok: "voiceagent:index:getVoice", args: { voiceName: "alloy" } }, "0.0.0");
    const agent = await client.agents.create({ prompt: "confidential prompt", voice: String(voice.return.id) });
    const placed = await client.calls.create({
      from_number: "+15550010003",
      to_number: "+15557654321",
      agent: agent.id,
    });
    const call = await invoke(settings(), { tok: "voiceagent:index:getCall", args: { id: placed.id } }, "0.0.0");
    expect(call).toEqual({
      return: expect.objectContaining({
        id: placed.id,
        status: placed.status,
        transcript: wrapped(null),
        errorMessage: wrapped(null),
      }),
      failures: [],
    });
    const got = await invoke(settings(), { tok: "voiceagent:index:getAgent", args: { id: agent.id } }, "0.0.0");
    expect(got.return.prompt).toEqual(wrapped("confidential prompt"));
  });

  it("answers argument failures without sending anything, and refuses a token it does not serve, naming its version", async () => {
    const plugin = await import("../../provider/plugin/invoke.js");
    // As the plugin's provider runs it: in its host.
    const invoke = (settings: ProviderSettings, req: InvokeRequest, version: string) =>
      host.run(() => plugin.invoke({ scope: RequestScope.of(host, settings) }, req, version));
    emu.resetStats();
    const refused = await invoke(settings(), { tok: "voiceagent:index:getPhoneNumber", args: {} }, "0.0.0");
    expect(refused.failures).toEqual([expect.objectContaining({ property: "number" })]);
    await expect(invoke(settings(), { tok: "voiceagent:index:getWeather", args: {} }, "9.9.9")).rejects.toThrow(
      /voiceagent:index:getWeather is not a function this plugin serves \(the voiceagent plugin is 9\.9\.9/,
    );
    expect(emu.stats.total).toBe(0);
  });
});
