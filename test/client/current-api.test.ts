// The client against the emulator speaking the current API (2024, docs/contract-current.md): every
// answer that holds an agent, normalized lists holding nulls, the five voice types, writes without
// null, irreversible acts, the slash route, and a lost create reply reconciled through a normalized list.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiGenerationError, ApiValidationError, createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { httpRequest } from "../helpers/emulator.js";
import { startRecordingServer } from "../helpers/recording-server.js";

let emu: RunningEmulator;
const token = `cur-${randomUUID()}`;
/** A client that tells the generation from the answers (the default). */
let client: VoiceAgentClient;
beforeAll(async () => {
  emu = await startEmulator({ tokens: [token], seed: true, validateResponses: true, api: "2024" });
  client = createClient({ baseUrl: emu.url, token });
});
afterAll(() => emu.close());

describe("the current API (2024)", () => {
  it("sends what the current SDK types say: prompt objects, normalized list items holding nulls", async () => {
    const seeds = emu.seeds.get(token)!;
    const agent = await client.agents.create({
      prompt: "You book visits.",
      voice: seeds.voices[0]!,
      actions: seeds.actions,
    });
    // The raw wire, to see the fixture really holds what the reader must cope with.
    const raw = await httpRequest(emu.url, "GET", "/v1/agents/list?page=1&size=50", token);
    const item = raw.json.items.find((i: { id: string }) => i.id === agent.id);
    expect(item).toMatchObject({
      prompt: { content: "You book visits." },
      voice: seeds.voices[0],
      actions: seeds.actions,
      webhook: null,
    });
    expect(raw.json).toHaveProperty("total_is_estimated");
    const one = await httpRequest(emu.url, "GET", `/v1/agents?id=${agent.id}`, token);
    expect(one.json.prompt).toMatchObject({ content: "You book visits.", user_id: agent.user_id });
    const actions = await httpRequest(emu.url, "GET", "/v1/actions/list", token);
    expect(actions.json.items[0].config).toBeNull();

    // ...and the client reads all of it as one shape.
    expect(agent.prompt).toBe("You book visits.");
    expect((await client.agents.get(agent.id)).prompt).toBe("You book visits.");
    const listed = (await client.agents.list.all()).find((a) => a.id === agent.id);
    expect(listed).toMatchObject({
      prompt: "You book visits.",
      voice: { id: seeds.voices[0] },
      actions: [{ id: seeds.actions[0] }],
    });
    expect((await client.actions.list.all())[0]?.config).toEqual({});
    expect(client.generation.known()).toBe("2024");
  });

  it("binds numbers, lists them normalized, places and ends a call, cancels a number", async () => {
    const seeds = emu.seeds.get(token)!;
    const agent = await client.agents.create({ prompt: "You answer.", voice: seeds.voices[1]! });
    const number = seeds.numbers[0]!;
    expect((await client.numbers.update(number, agent.id)).inbound_agent?.id).toBe(agent.id);
    const listed = (await client.numbers.list.all()).find((n) => n.number === number);
    expect(listed?.inbound_agent).toEqual({ id: agent.id });
    const call = await client.calls.create({ from_number: number, to_number: "+15550001111", agent: agent.id });
    const calls = await httpRequest(emu.url, "GET", "/v1/calls/list", token);
    expect(calls.json.items[0]).toMatchObject({ agent: agent.id, recording_available: null });
    expect((await client.calls.list.all()).find((c) => c.id === call.id)?.agent.id).toBe(agent.id);
    expect((await client.calls.end(call.id))?.status).toBe("ended");
    const bought = await client.numbers.buy();
    expect((await client.numbers.cancel(bought.number))?.active).toBe(false);
  });

  it("writes each voice type with its own fields, and refuses voice_base before sending", async () => {
    const azure = await client.voices.create({ type: "voice_azure", voice_name: "en-US-AvaNeural" });
    expect(azure).toMatchObject({ type: "voice_azure", voice_name: "en-US-AvaNeural" });
    const rime = await client.voices.update(azure.id, { type: "voice_rime", speaker: "river" });
    expect(rime).toMatchObject({ type: "voice_rime", speaker: "river" });
    expect(rime.voice_name ?? undefined).toBeUndefined();
    expect(await client.voices.create({ type: "voice_eleven_labs", voice_id: "rachel" })).toMatchObject({
      voice_id: "rachel",
    });
    expect(await client.voices.create({ type: "voice_vocode" })).toMatchObject({ voice_id: "joe" });
    const before = emu.stats.total;
    const err = await client.voices.create({ voice_name: "alloy", pitch: 0, rate: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiGenerationError);
    expect((err as Error).message).toMatch(/voice_base does not exist on the 2024 API.*assumed API 2024/);
    expect(emu.stats.total).toEqual(before);
  });

  it('clears an opening message with "", and says before sending that a webhook or a binding cannot be removed', async () => {
    const seeds = emu.seeds.get(token)!;
    const hook = await client.webhooks.create({
      url: "https://hooks.example/x",
      subscriptions: ["event_human_detection"],
    });
    const agent = await client.agents.create({
      prompt: "p",
      voice: seeds.voices[0]!,
      initial_message: "Hello",
      webhook: hook.id,
    });
    const cleared = await client.agents.update(agent.id, { initial_message: null });
    expect(cleared.initial_message ?? "").toBe("");
    const noHook = await client.agents.update(agent.id, { webhook: null }).catch((e: unknown) => e);
    expect(noHook).toBeInstanceOf(ApiGenerationError);
    expect((noHook as Error).message).toMatch(/cannot remove an agent's webhook.*assumed API 2024.*Nothing was sent/);
    const unbind = await client.numbers.update(seeds.numbers[1]!, null).catch((e: unknown) => e);
    expect(unbind).toBeInstanceOf(ApiGenerationError);
    // Told the wrong generation, the service itself refuses the null (422), and nothing changes.
    const old = createClient({ baseUrl: emu.url, token, api: "2023" });
    expect(await old.agents.update(agent.id, { webhook: null }).catch((e: unknown) => e)).toBeInstanceOf(
      ApiValidationError,
    );
    expect((await client.agents.get(agent.id)).webhook?.id).toBe(hook.id);
  });

  it("the slash form of GET /v1/agents/ is a redirect: never taken for an answer", async () => {
    const seeds = emu.seeds.get(token)!;
    const agent = await client.agents.create({ prompt: "p", voice: seeds.voices[0]! });
    const slash = await httpRequest(emu.url, "GET", `/v1/agents/?id=${agent.id}`, token);
    expect(slash.status).toBe(307);
    // The client calls the SDKs' route...
    expect((await client.agents.get(agent.id)).id).toBe(agent.id);
    // ...and a 3xx anywhere is an error naming the route and where it points, not a body to parse.
    const server = await startRecordingServer(() => ({
      status: 307,
      text: "",
      headers: { location: "/v1/voices/?id=x" },
    }));
    try {
      const err = await createClient({ baseUrl: server.url, token })
        .voices.get(agent.id)
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "E_REDIRECT", status: 307, mayHaveActed: false });
      expect((err as Error).message).toMatch(
        /GET \/v1\/voices\?id=\S+ answered 307, a redirect to \/v1\/voices\/\?id=x/,
      );
    } finally {
      await server.close();
    }
  });

  it("a create whose reply is lost is found in the normalized list, not made twice", async () => {
    const seeds = emu.seeds.get(token)!;
    const fresh = createClient({
      baseUrl: emu.url,
      token,
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
      reconcile: { checkDelayMs: 1 },
    });
    emu.faults.add({ phase: "after", route: "/v1/agents/create", reset: true, count: 1 });
    const prompt = `Lost ${randomUUID()}`;
    const agent = await fresh.agents.create({ prompt, voice: seeds.voices[2]!, actions: [] });
    expect(agent.prompt).toBe(prompt);
    const same = (await fresh.agents.list.all()).filter((a) => a.prompt === prompt);
    expect(same.map((a) => a.id)).toEqual([agent.id]);
  });
});
