// A preview's verdict does not depend on what the provider process read before (issue 34 item 2):
// with voiceagent:api left at auto, the API generation is settled once per provider configuration,
// by one read of one page of the agent list, before the first check that depends on it answers.
// A Voice left at its default type (voice_base, the interface's) fails at preview against the
// current API (2024), whether or not something was read first, on both entries, in-process: the
// dynamic provider's runtime (dynamic/runtimes.ts, as its shims call it) and the native plugin's
// plain provider. The CLI-level scenario is test/e2e/current-kinds.test.ts's ("a default-typed Voice…").
import { randomUUID } from "node:crypto";
import net from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { createClient } from "../../provider/client/index.js";
import type { PlainProvider } from "../../provider/plugin/protocol.js";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { GENERATION_PROBE, routesSince } from "../helpers/generation-probe.js";
import { inProcessPlugin, withoutVoiceagentEnv } from "../helpers/plugin-harness.js";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const PROBE = GENERATION_PROBE;
/** A voice as a program that never heard of voice types declares it (the interface's shape). */
const DEFAULT_TYPED = { voiceName: "alloy", pitch: 0, rate: 1 };
/** Every configuration below has a token of its own: one provider configuration, one client. */
const tokens = Array.from({ length: 8 }, () => `gen-${randomUUID()}`);
let next = 0;
const freshToken = () => {
  const t = tokens[next++];
  if (!t) throw new Error("the test needs more tokens");
  return t;
};

let emu: RunningEmulator;
let recorder: RecordingServer;
beforeAll(async () => {
  emu = await startEmulator({ tokens, seed: true, api: "2024" });
  recorder = await startRecordingServer(() => ({ status: 500, json: { detail: "nothing should be sent here" } }));
});
afterAll(async () => {
  await Promise.all([emu?.close(), recorder?.close()]);
});
beforeEach(withoutVoiceagentEnv);
afterEach(() => vi.unstubAllEnvs());

const since = (before: Record<string, number>) => routesSince(emu.stats.byRoute, before);
const reasons = (r: { failures?: { reason: string }[] | undefined }) => (r.failures ?? []).map((f) => f.reason);
/** An agent made behind the provider's back, so a read through the provider has something to read. */
const agentOf = async (token: string) => {
  const client = createClient({ baseUrl: emu.url, token, api: "2024" });
  const voice = emu.seeds.get(token)?.voices[0];
  if (!voice) throw new Error("the emulator seeded no voice");
  return (await client.agents.create({ prompt: "You answer the phone.", voice })).id;
};
const TYPE_REFUSED =
  /^type: voice_base .* does not exist on the 2024 API: set type to one of voice_azure.*nothing was sent/;

describe("the dynamic entry (the runtime the shims call)", () => {
  const settings = (token: string, api?: string) => ({
    baseUrl: emu.url,
    token,
    config: { get: (k: string) => (k === "voiceagent:api" ? api : undefined) },
  });

  it("a default-typed Voice fails at check naming type, before and after a read, asking the service once", async () => {
    const voice = runtimeFor("Voice");
    // Nothing read before: the check asks, once, and answers.
    const first = settings(freshToken());
    const before = { ...emu.stats.byRoute };
    const cold = await voice.check(first, {}, DEFAULT_TYPED);
    expect(reasons(cold)).toEqual([expect.stringMatching(TYPE_REFUSED)]);
    expect(reasons(await voice.check(first, {}, DEFAULT_TYPED))).toEqual(reasons(cold));
    expect(since(before)).toEqual({ [PROBE]: 1 });

    // Another configuration whose process read an agent first (a refresh): the same verdict.
    const token = freshToken();
    const id = await agentOf(token);
    const second = settings(token);
    await runtimeFor("Agent").read(second, id, {});
    const afterRead = { ...emu.stats.byRoute };
    const warm = await voice.check(second, {}, DEFAULT_TYPED);
    expect(reasons(warm)).toEqual(reasons(cold));
    // And the same requests: the probe is sent even though the read's answer could have told.
    expect(since(afterRead)).toEqual({ [PROBE]: 1 });
  });

  it("a voice of a current type passes; an input the kind refuses sends nothing at all", async () => {
    const voice = runtimeFor("Voice");
    const s = settings(freshToken());
    const before = { ...emu.stats.byRoute };
    expect(reasons(await voice.check(s, {}, { type: "voice_rime", speaker: "river" }))).toEqual([]);
    expect(since(before)).toEqual({ [PROBE]: 1 });
    const again = { ...emu.stats.byRoute };
    const bad = await runtimeFor("Voice").check(settings(freshToken()), {}, { ...DEFAULT_TYPED, pitch: "high" });
    expect(reasons(bad)).toEqual([expect.stringMatching(/^pitch /)]);
    expect(since(again)).toEqual({});
  });

  it("with voiceagent:api set, nothing is read, and the verdict is the same", async () => {
    const before = { ...emu.stats.byRoute };
    const set = await runtimeFor("Voice").check(settings(freshToken(), "2024"), {}, DEFAULT_TYPED);
    expect(reasons(set)).toEqual([expect.stringMatching(TYPE_REFUSED)]);
    expect(since(before)).toEqual({});
  });
});

describe("the native entry (the plugin's plain provider)", () => {
  const urn = (kind: string) => `urn:pulumi:dev::proj::voiceagent:index:${kind}::r`;
  const at = (kind: string) => ({ urn: urn(kind), type: `voiceagent:index:${kind}` });
  const configured = async (config: Record<string, unknown>): Promise<PlainProvider> => {
    const p = inProcessPlugin().provider;
    await p.configure({ config, plainKeys: [] });
    return p;
  };
  const checkVoice = (p: PlainProvider, news: Record<string, unknown>) => p.check({ ...at("Voice"), olds: {}, news });

  it("a default-typed Voice fails at check naming type, before and after a read, asking the service once", async () => {
    const before = { ...emu.stats.byRoute };
    const cold = await checkVoice(await configured({ baseUrl: emu.url, token: freshToken() }), DEFAULT_TYPED);
    expect(reasons(cold)).toEqual([expect.stringMatching(TYPE_REFUSED)]);
    expect(since(before)).toEqual({ [PROBE]: 1 });

    const token = freshToken();
    const id = await agentOf(token);
    const p = await configured({ baseUrl: emu.url, token });
    await p.read({ ...at("Agent"), id, properties: {}, inputs: {} });
    const afterRead = { ...emu.stats.byRoute };
    expect(reasons(await checkVoice(p, DEFAULT_TYPED))).toEqual(reasons(cold));
    expect(reasons(await checkVoice(p, { type: "voice_azure", voiceName: "en-US-AvaNeural" }))).toEqual([]);
    expect(since(afterRead)).toEqual({ [PROBE]: 1 });
  });

  it("an unreachable service is said at check: what failed, that nothing was written, and what to do", async () => {
    // A port that was just free: nothing listens there.
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const p = await configured({ baseUrl: `http://127.0.0.1:${closed}`, token: "unreachable-token" });
    const [reason, ...rest] = reasons(await checkVoice(p, DEFAULT_TYPED));
    expect(rest).toEqual([]);
    expect(reason).toMatch(/^voiceagent:Voice cannot be checked: voiceagent:api is auto, and asking the service/);
    expect(reason).toMatch(/Nothing was written to the service\. Check voiceagent:baseUrl/);
    expect(reason).toMatch(/pulumi config set voiceagent:api 2024/);
    expect(reason).not.toContain("unreachable-token");
  });

  it("config unknown at preview: the inputs are checked, nothing is asked, nothing fails for the settings", async () => {
    const p = await configured({ baseUrl: UNKNOWN, token: "recorder-token" });
    expect(reasons(await checkVoice(p, DEFAULT_TYPED))).toEqual([]);
    expect(reasons(await checkVoice(p, { ...DEFAULT_TYPED, rate: "fast" }))).toEqual([expect.stringMatching(/^rate /)]);
    const q = await configured({ baseUrl: recorder.url, token: UNKNOWN });
    expect(reasons(await checkVoice(q, DEFAULT_TYPED))).toEqual([]);
    expect(recorder.requests).toEqual([]);
  });
});
