// Round trips through the real emulator over HTTP: every typed method of the client.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";

let emu: RunningEmulator;
let client: VoiceAgentClient;
beforeAll(async () => {
  emu = await startEmulator({ tokens: ["rt-token"], seed: true });
  client = createClient({ baseUrl: emu.url, token: "rt-token" });
});
afterAll(() => emu.close());

describe("client against the emulator", () => {
  it("creates and reads every kind, binds a number, places and ends a call", async () => {
    const voice = await client.voices.create({ voice_name: "echo", pitch: 1, rate: 2 });
    expect(await client.voices.get(voice.id)).toEqual(voice);
    expect((await client.voices.update(voice.id, { voice_name: "echo2", pitch: 1, rate: 2 })).voice_name).toBe("echo2");
    const action = await client.actions.create({
      type: "action_transfer_call",
      config: { phone_number: "+15550009999" },
    });
    expect((await client.actions.update(action.id, { type: "action_dtmf", config: {} })).type).toBe("action_dtmf");
    expect((await client.actions.get(action.id)).type).toBe("action_dtmf");
    const hook = await client.webhooks.create({ url: "https://example.com/x", subscriptions: ["event_message"] });
    expect(
      (await client.webhooks.update(hook.id, { url: "https://example.com/y", subscriptions: ["event_message"] })).url,
    ).toBe("https://example.com/y");
    expect((await client.webhooks.get(hook.id)).url).toBe("https://example.com/y");

    const agent = await client.agents.create({
      prompt: "Sell.",
      voice: voice.id,
      actions: [action.id],
      webhook: hook.id,
    });
    expect(agent.actions[0]?.id).toBe(action.id);
    const updated = await client.agents.update(agent.id, { prompt: "Sell more." });
    expect(updated.prompt).toBe("Sell more.");
    expect(await client.agents.get(agent.id)).toEqual(updated);

    const [first] = emu.seeds.get("rt-token")!.numbers;
    const bound = await client.numbers.update(first!, agent.id);
    expect(bound.inbound_agent?.id).toBe(agent.id);
    expect((await client.numbers.get(first!)).inbound_agent?.prompt).toBe("Sell more.");
    const call = await client.calls.create({ from_number: first!, to_number: "+15550001111", agent: agent.id });
    expect(call.status).toBe("not_started");
    expect((await client.calls.end(call.id))?.status).toBe("ended");
    expect((await client.calls.get(call.id)).status).toBe("ended");
    const bought = await client.numbers.buy();
    expect(bought.active).toBe(true);
    expect((await client.numbers.cancel(bought.number))?.active).toBe(false);
  });

  it("lists page by page and all at once", async () => {
    for (let i = 0; i < 3; i++) await client.voices.create({ voice_name: `v${i}`, pitch: 0, rate: 0 });
    const page = await client.voices.list.page(1, 2);
    expect(page.items).toHaveLength(2);
    expect(page.has_more).toBe(true);
    const all = await client.voices.list.all();
    expect(all.length).toBe(page.total);
  });
});
