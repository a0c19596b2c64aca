// A voice's vendor API key on the current API (2024): only the types that carry one take it (said
// at preview, naming the field and never the value), it goes out under the SDK's wire names, a
// service that leaves it out of its answers causes no drift, and a refusal quoting it is redacted.
// That it is secret in the schema, the SDKs and the state is test/codegen/schema.test.ts's (and
// test/e2e/current-api.test.ts's).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpFailure, startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { Host } from "../../provider/host.js";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";

let emu: RunningEmulator;
const token = `keys-${randomUUID()}`;
const notes: string[] = [];
// Values no message could hold by chance: any text that contains one leaked it.
const KEY = `el-key-${randomUUID()}`;
const USER = `ph-user-${randomUUID()}`;
const settings = (api: string) => ({
  baseUrl: emu.url,
  token,
  config: { get: (k: string) => (k === "voiceagent:api" ? api : undefined) },
});
/** The voice as the emulator stores it (what the service was sent). */
const stored = (userId: unknown, id: string) => emu.store.get<Record<string, unknown>>("voice", String(userId), id);

/** The host the runtimes run in (the dynamic provider host's, as a test builds it): its notes are collected. */
const host = new Host({ notes: (text) => notes.push(text) });
beforeAll(async () => {
  emu = await startEmulator({ tokens: [token], api: "2024" });
});
afterAll(async () => {
  await emu.close();
});

describe("a voice's vendor API key (2024 API)", () => {
  it("is refused at preview on a type that has none, naming the field and never the value", async () => {
    const voice = runtimeFor("Voice", host);
    const cases = [
      [settings("2024"), { type: "voice_rime", speaker: "river", apiKey: KEY }, "apiKey", "voice_rime"],
      [settings("2024"), { type: "voice_eleven_labs", vendorVoiceId: "rachel", apiUserId: KEY }, "apiUserId", ""],
      [settings("2023"), { voiceName: "alloy", pitch: 0, rate: 1, apiKey: KEY }, "apiKey", "voice_base"],
    ] as const;
    for (const [s, inputs, field, where] of cases) {
      const failures = (await voice.check(s, {}, inputs)).failures ?? [];
      expect(failures, field).toHaveLength(1);
      // The engine prints a failure's `property` value beside it: the field goes in the reason.
      expect(failures[0]).toMatchObject({ property: "" });
      expect(failures[0]?.reason).toMatch(new RegExp(`^${field} is not a field of a.*${where}`));
      expect(JSON.stringify(failures)).not.toContain(KEY);
    }
    expect(emu.stats.total).toBe(0);
  });

  it("ElevenLabs: sent as api_key, read back, a change is an update in place, and nothing tells it", async () => {
    const voice = runtimeFor("Voice", host);
    const s = settings("2024");
    const inputs = { type: "voice_eleven_labs", vendorVoiceId: "rachel", apiKey: KEY };
    expect((await voice.check(s, {}, inputs)).failures).toBeUndefined();
    const made = await voice.create(s, inputs);
    expect(stored(made.outs.userId, made.id)).toMatchObject({ type: "voice_eleven_labs", api_key: KEY });
    expect(made.outs).toMatchObject({ apiKey: KEY });
    expect((await voice.read(s, made.id, made.outs)).props).toMatchObject({ apiKey: KEY });
    expect(await voice.diff(s, made.id, made.outs, inputs)).toMatchObject({ changes: false });

    const rotated = { ...inputs, apiKey: `${KEY}-2` };
    const diff = await voice.diff(s, made.id, made.outs, rotated);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const updated = await voice.update(s, made.id, made.outs, rotated);
    expect(stored(made.outs.userId, made.id)).toMatchObject({ api_key: `${KEY}-2` });
    expect(JSON.stringify([diff, notes])).not.toContain(KEY);

    // A service that does not echo the key (it may not): the recorded one stands, no drift.
    const live = stored(made.outs.userId, made.id);
    const { api_key: _dropped, ...withoutKey } = live ?? {};
    emu.store.update("voice", { id: made.id, user_id: String(made.outs.userId), ...withoutKey });
    const read = await voice.read(s, made.id, updated.outs ?? {});
    expect(read.props).toMatchObject({ apiKey: `${KEY}-2` });
    expect(await voice.diff(s, made.id, read.props ?? {}, rotated)).toMatchObject({ changes: false });
  });

  it("a refusal that quotes the key shows the service's reason, not the key", async () => {
    const { service } = emu;
    const createVoice = service.createVoice.bind(service);
    const quoted = `bad-${KEY}`;
    service.createVoice = (_u, b) => {
      throw new HttpFailure(422, [
        { loc: ["body", "api_key"], msg: `${b.api_key} is not a valid key`, type: "value_error" },
      ]);
    };
    const err = await runtimeFor("Voice", host)
      .create(settings("2024"), { type: "voice_eleven_labs", vendorVoiceId: "rachel", apiKey: quoted })
      .catch((e: unknown) => e)
      .finally(() => {
        service.createVoice = createVoice;
      });
    expect(String(err)).toMatch(/api_key: .*is not a valid key/);
    expect(JSON.stringify([String(err), notes])).not.toContain(quoted);
  });

  it("Play.ht: the user id and the key go out as api_user_id and api_key", async () => {
    const s = settings("2024");
    const made = await runtimeFor("Voice", host).create(s, {
      type: "voice_play_ht",
      vendorVoiceId: "s3://voice",
      apiUserId: USER,
      apiKey: KEY,
    });
    expect(stored(made.outs.userId, made.id)).toMatchObject({ api_user_id: USER, api_key: KEY });
    expect(made.outs).toMatchObject({ apiUserId: USER, apiKey: KEY });
  });
});
