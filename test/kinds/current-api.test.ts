// The provider's kinds against the emulator speaking the current API (2024), driven in-process the
// way the engine drives them: what that API cannot do is said at preview (check), a binding it
// cannot remove is forgotten at destroy with a note, voices are checked per type, and a read of a
// bound number, a cancel and a call end work on its shapes.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { Host } from "../../provider/host.js";

let emu: RunningEmulator;
const token = `cur-${randomUUID()}`;
const notes: string[] = [];
/** The host the runtimes run in (the dynamic provider host's, as a test builds it): its notes are collected. */
const newHost = () => new Host({ notes: (text) => notes.push(text) });
let host = newHost();
/** Settings as `configure` captures them, with voiceagent:api set. */
const settings = (api: string) => ({
  baseUrl: emu.url,
  token,
  config: { get: (k: string) => (k === "voiceagent:api" ? api : undefined) },
});
beforeAll(async () => {
  emu = await startEmulator({ tokens: [token], seed: true, api: "2024" });
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => {
  notes.length = 0;
});

describe("kinds on the current API (2024)", () => {
  it("Voice: each type's own fields are checked at preview; a type change is an update in place", async () => {
    const voice = runtimeFor("Voice", host);
    const s = settings("2024");
    const bad = await voice.check(s, {}, { type: "voice_rime", voiceName: "en-US-AvaNeural" });
    expect(bad.failures?.map((f) => f.reason)).toEqual([
      "speaker is required for a voice_rime voice; nothing was sent to the service",
      "voiceName is not a field of a voice_rime voice: remove it, or choose a type that has it; nothing was sent to the service",
    ]);
    const azure = { type: "voice_azure", voiceName: "en-US-AvaNeural" };
    expect((await voice.check(s, {}, azure)).failures).toBeUndefined();
    const made = await voice.create(s, azure);
    expect(made.outs).toMatchObject({ type: "voice_azure", voiceName: "en-US-AvaNeural" });
    const rime = { type: "voice_rime", speaker: "river" };
    expect(await voice.diff(s, made.id, made.outs, rime)).toMatchObject({ changes: true, replaces: [] });
    const updated = await voice.update(s, made.id, made.outs, rime);
    expect(updated.outs).toMatchObject({ type: "voice_rime", speaker: "river" });
    expect(updated.outs).not.toHaveProperty("voiceName");
    expect(await voice.diff(s, made.id, updated.outs ?? {}, rime)).toMatchObject({ changes: false });
  });

  it("Agent: removing its webhook fails at preview, naming the generation; the prompt changes in place", async () => {
    const seeds = emu.seeds.get(token)!;
    const hook = await runtimeFor("Webhook", host).create(settings("2024"), {
      url: "https://hooks.example/a",
      subscriptions: ["event_message"],
    });
    const agent = runtimeFor("Agent", host);
    const inputs = { prompt: "You book visits.", voice: seeds.voices[0], webhook: hook.id, initialMessage: "Hi" };
    const made = await agent.create(settings("2024"), inputs);
    const without = { prompt: "You book visits.", voice: seeds.voices[0] };
    const checked = await agent.check(settings("2024"), inputs, without);
    // The field is named in the reason, never in `property` (the engine would print its value).
    expect(checked.failures?.[0]).toMatchObject({ property: "" });
    expect(checked.failures?.[0]?.reason).toMatch(
      /^webhook: the 2024 API cannot remove an agent's webhook.*; nothing was sent to the service$/,
    );
    // A prompt change, and the opening message cleared without null.
    const changed = { ...inputs, prompt: "You book and move visits.", initialMessage: undefined };
    const updated = await agent.update(settings("2024"), made.id, made.outs, changed);
    expect(updated.outs).toMatchObject({ prompt: "You book and move visits.", webhook: hook.id });
    expect(updated.outs).not.toHaveProperty("initialMessage");
    expect((await agent.read(settings("2024"), made.id, updated.outs ?? {})).props).toMatchObject({
      prompt: "You book and move visits.",
    });
  });

  it("a write the service refuses names the API generation it was written for", async () => {
    const seeds = emu.seeds.get(token)!;
    // Told 2023, the provider sends the interface's voice; the 2024 service refuses voice_base.
    const err = await runtimeFor("Voice", host)
      .create(settings("2023"), { voiceName: "alloy", pitch: 0, rate: 1 })
      .catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /refused .*changed nothing.*assumed API 2023: voiceagent:api is 2023.*set voiceagent:api/,
    );
    expect(seeds.voices).toHaveLength(3);
  });

  it("PhoneNumber: preview says a binding cannot be removed; destroy leaves it bound, forgets it and says so", async () => {
    const seeds = emu.seeds.get(token)!;
    const agent = await runtimeFor("Agent", host).create(settings("2024"), { prompt: "p", voice: seeds.voices[1] });
    const number = runtimeFor("PhoneNumber", host);
    const inputs = { number: seeds.numbers[2], inboundAgent: agent.id };
    expect((await number.check(settings("2024"), {}, inputs)).failures).toBeUndefined();
    expect(notes.join("\n")).toMatch(/2024 API cannot unbind a number.*leaves the number bound to its agent/);
    const bound = await number.create(settings("2024"), inputs);
    expect((await number.read(settings("2024"), bound.id, bound.outs)).props).toMatchObject({
      inboundAgent: agent.id,
      active: true,
    });
    // The destroy is another deployment: the program no longer declares the number.
    host = newHost();
    const before = emu.stats.total;
    await runtimeFor("PhoneNumber", host).delete(settings("2024"), bound.id, bound.outs);
    expect(notes.join("\n")).toMatch(/left bound to its agent and removed from the stack.*assumed API 2024/);
    // Nothing was sent to unbind (the service would refuse the null).
    expect(emu.stats.writes["POST /v1/numbers/update"] ?? 0).toBe(1);
    expect(emu.stats.total).toBe(before);
  });

  it("PurchasedNumber and Call: a cancel and a call end on the current API's answers are done, not failures", async () => {
    const seeds = emu.seeds.get(token)!;
    const agent = await runtimeFor("Agent", host).create(settings("2024"), { prompt: "p", voice: seeds.voices[2] });
    const bought = await runtimeFor("PurchasedNumber", host).create(settings("2024"), { areaCode: "415" });
    const call = await runtimeFor("Call", host).create(settings("2024"), {
      fromNumber: seeds.numbers[3],
      toNumber: "+15557650000",
      agent: agent.id,
    });
    await runtimeFor("Call", host).delete(settings("2024"), call.id, call.outs);
    await runtimeFor("PurchasedNumber", host).delete(settings("2024"), bought.id, bought.outs);
    expect(emu.stats.writes).toMatchObject({ "POST /v1/calls/end": 1, "POST /v1/numbers/cancel": 1 });
  });
});
