// The provider's checks at preview and the emulator's own limits and formats (emulator/contract.ts,
// written apart from the provider's schemas) give the same answer for the same value: each case is
// run through both, at each bound and just past it, and where both refuse they name the same field.
import { beforeAll, describe, expect, it } from "vitest";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { testEmulator, type TestEmulator } from "../helpers/emulator.js";

let t: TestEmulator;
let voice: string;
let action: string;
beforeAll(async () => {
  t = await testEmulator();
  const seed = t.emu.seeds.get(t.tokenA)!;
  voice = seed.voices[0]!;
  action = seed.actions[0]!;
});

// The interface's API generation (the emulator's default), set: no check asks the service which one it speaks.
const settings = {
  baseUrl: "http://127.0.0.1:9",
  token: "t0ken-value",
  config: { get: (k: string) => (k === "voiceagent:api" ? "2023" : undefined) },
};
const url = (length: number) => `https://hooks.example.com/${"p".repeat(length - "https://hooks.example.com/".length)}`;

/** One value, as the program gives it (provider) and as the service receives it (emulator). */
interface Case {
  name: string;
  kind: "Agent" | "Voice" | "Webhook";
  inputs: () => Record<string, unknown>;
  route: string;
  body: () => Record<string, unknown>;
  /** The wire field a refusal names, or undefined when the value is within the contract. */
  refused?: string;
}

const agent = (
  extra: Record<string, unknown>,
  wire: Record<string, unknown>,
  refused?: string,
  name = JSON.stringify(Object.keys(extra)),
): Case => ({
  name,
  kind: "Agent",
  inputs: () => ({ prompt: "p", voice, ...extra }),
  route: "/v1/agents/create",
  body: () => ({ prompt: "p", voice, ...wire }),
  ...(refused ? { refused } : {}),
});
const voiceCase = (pitch: number, rate: number, voiceName = "alloy", refused?: string): Case => ({
  name: `pitch ${pitch}, rate ${rate}, voiceName of ${voiceName.length}`,
  kind: "Voice",
  inputs: () => ({ voiceName, pitch, rate }),
  route: "/v1/voices/create",
  body: () => ({ voice_name: voiceName, pitch, rate }),
  ...(refused ? { refused } : {}),
});
const webhook = (u: string, refused?: string): Case => ({
  name: `url ${u.length > 60 ? `of ${u.length} characters` : u}`,
  kind: "Webhook",
  inputs: () => ({ url: u, subscriptions: ["event_message"] }),
  route: "/v1/webhooks/create",
  body: () => ({ url: u, method: "POST", subscriptions: ["event_message"] }),
  ...(refused ? { refused } : {}),
});

const cases: Case[] = [
  agent({ prompt: "x".repeat(100_000) }, { prompt: "x".repeat(100_000) }, undefined, "prompt at the limit"),
  agent({ prompt: "x".repeat(100_001) }, { prompt: "x".repeat(100_001) }, "prompt", "prompt past the limit"),
  agent(
    { initialMessage: "y".repeat(10_000) },
    { initial_message: "y".repeat(10_000) },
    undefined,
    "initialMessage at the limit",
  ),
  agent(
    { initialMessage: "y".repeat(10_001) },
    { initial_message: "y".repeat(10_001) },
    "initial_message",
    "initialMessage past the limit",
  ),
  {
    ...agent({}, {}, undefined, "one action"),
    inputs: () => ({ prompt: "p", voice, actions: [action] }),
    body: () => ({ prompt: "p", voice, actions: [action] }),
  },
  {
    ...agent({}, {}, "actions", "the same action twice"),
    inputs: () => ({ prompt: "p", voice, actions: [action, action] }),
    body: () => ({ prompt: "p", voice, actions: [action, action] }),
  },
  voiceCase(-100, 0),
  voiceCase(100, 100, "v".repeat(200)),
  voiceCase(101, 1, "alloy", "pitch"),
  voiceCase(1e12, 1, "alloy", "pitch"),
  voiceCase(0, -5, "alloy", "rate"),
  voiceCase(0, 101, "alloy", "rate"),
  voiceCase(0, 1, "v".repeat(201), "voice_name"),
  webhook("https://hooks.example.com/a%20path?x=1"),
  webhook(url(2_048)),
  webhook(url(2_049), "url"),
  webhook("https://user:pass@hooks.example.com/x", "url"),
  webhook("https://hooks.example.com/a path", "url"),
];

describe("the provider's checks and the emulator's contract agree", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const checked = await runtimeFor(c.kind).check(settings, {}, c.inputs());
    const served = await t.call("POST", c.route, c.body());
    const providerRefuses = (checked.failures ?? []).length > 0;
    expect({ providerRefuses, status: served.status }).toEqual({
      providerRefuses: c.refused !== undefined,
      status: c.refused ? 422 : 200,
    });
    if (c.refused) expect((served.json.detail as { loc: unknown[] }[]).map((d) => d.loc[1])).toContain(c.refused);
  });
});
