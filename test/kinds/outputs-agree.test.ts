// What a write records equals what a read of the same object records (issue 48), for every kind
// of the registry on both API generations, against an emulator answering with the service's
// defaults (emulator/service-defaults.ts): each kind is created through its real runtime (the
// dynamic runtime the shims call), then read back and updated with the same inputs in fresh hosts,
// as the next refresh's and up's provider processes do, adopted (kinds with an adopt input) and
// imported (kinds with an import id), each followed by a read: each records the same outputs, so a value
// the service filled in for a field the program leaves to it is no drift (`voiceagent drift`
// compares them). A hand edit of such a field afterwards is read as one. A kind added without a
// row here fails.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { Host } from "../../provider/host.js";
import type { Props } from "../../provider/resources/kit/kind.js";
import { KINDS, type KindName } from "../../provider/resources/kinds/index.js";

type Gen = "2023" | "2024";
const token = `agree-${randomUUID()}`;
const emus = {} as Record<Gen, RunningEmulator>;
const clients = {} as Record<Gen, VoiceAgentClient>;
const settings = (gen: Gen) => ({
  baseUrl: emus[gen].url,
  token,
  config: { get: (k: string) => (k === "voiceagent:api" ? gen : undefined) },
});

/** What the objects of one generation's account that rows refer to are. */
interface Account {
  voice: string;
  action: string;
  webhook: string;
  agent: string;
  numbers: string[];
  twilio?: string;
}
const accounts = {} as Record<Gen, Account>;

/** One row per kind: the generations it exists in, and a program's inputs for it (fields left to the service unset). */
const ROWS: Record<KindName, { gens: Gen[]; inputs: (a: Account, gen: Gen) => Props }> = {
  Agent: {
    gens: ["2023", "2024"],
    inputs: (a) => ({
      prompt: "You book visits.",
      voice: a.voice,
      actions: [a.action],
      webhook: a.webhook,
      initialMessage: "Hello.",
    }),
  },
  Voice: {
    gens: ["2023", "2024"],
    inputs: (_a, gen) =>
      gen === "2023"
        ? { voiceName: "alloy", pitch: 0, rate: 1 }
        : { type: "voice_azure", voiceName: "en-US-JennyNeural", pitch: 0, rate: 1 },
  },
  Action: { gens: ["2023", "2024"], inputs: () => ({ type: "action_end_conversation" }) },
  Webhook: {
    gens: ["2023", "2024"],
    inputs: () => ({ url: "https://hooks.example.com/va", subscriptions: ["event_message"], method: "POST" }),
  },
  PhoneNumber: { gens: ["2023", "2024"], inputs: (a) => ({ number: a.numbers[0], inboundAgent: a.agent }) },
  PurchasedNumber: { gens: ["2023", "2024"], inputs: () => ({ areaCode: "415" }) },
  Call: {
    gens: ["2023", "2024"],
    inputs: (a) => ({
      fromNumber: a.numbers[1],
      toNumber: "+15557654321",
      agent: a.agent,
      allowedDestinations: ["+1555*"],
    }),
  },
  LinkedNumber: {
    gens: ["2024"],
    inputs: (a) => ({ number: "+16465550100", telephonyAccountConnection: a.twilio, inboundAgent: a.agent }),
  },
  Prompt: {
    gens: ["2024"],
    inputs: () => ({ content: "You book visits.", collectFields: [{ name: "email", label: "Email address" }] }),
  },
  VectorDatabase: {
    gens: ["2024"],
    inputs: () => ({ index: "clinic-faq", apiKey: "pc-agree-key", apiEnvironment: "us-east-1-aws" }),
  },
  AccountConnection: {
    gens: ["2024"],
    inputs: () => ({ type: "account_connection_openai", openaiApiKey: "sk-agree-key" }),
  },
};

beforeAll(async () => {
  for (const gen of ["2023", "2024"] as const) {
    emus[gen] = await startEmulator({ tokens: [token], seed: true, api: gen, serviceDefaults: true });
    clients[gen] = createClient({ baseUrl: emus[gen].url, token, api: gen });
    const seed = emus[gen].seeds.get(token)!;
    const agent = await clients[gen].agents.create({ prompt: "You take messages.", voice: seed.voices[1]! });
    accounts[gen] = {
      voice: seed.voices[0]!,
      action: seed.actions[0]!,
      webhook: seed.webhooks[0]!,
      agent: agent.id,
      numbers: seed.numbers,
      ...(gen === "2024"
        ? {
            twilio: (
              await clients[gen].account_connections.create({
                type: "account_connection_twilio",
                credentials: { twilio_account_sid: "AC-agree-0001", twilio_auth_token: "tw-agree" },
              })
            ).id,
          }
        : {}),
    };
  }
});
afterAll(async () => {
  await Promise.all(Object.values(emus).map((e) => e.close()));
});

/** Every kind on every generation it exists in. */
const cases = KINDS.flatMap((k) => ROWS[k.kind].gens.map((gen) => [k.kind, gen] as const));

describe("the outputs a create records are those a read of the same object records", () => {
  it("every kind has a row", () => {
    expect(Object.keys(ROWS).sort()).toEqual(KINDS.map((k) => k.kind).sort());
  });

  it.each(cases)("%s on the %s API", async (kind, gen) => {
    const s = settings(gen);
    const rt = runtimeFor(kind, new Host());
    const checked = await rt.check(s, {}, ROWS[kind].inputs(accounts[gen], gen));
    expect(checked.failures ?? []).toEqual([]);
    const made = await rt.create(s, checked.inputs);
    // The next refresh runs in a provider process of its own.
    const read = await runtimeFor(kind, new Host()).read(s, made.id, made.outs);
    expect(read.id).toBe(made.id);
    expect(read.props).toEqual(made.outs);
    // An update (the engine's, after a refresh or to finish a partial create) records the same again.
    const updated = await runtimeFor(kind, new Host()).update(s, made.id, made.outs, checked.inputs);
    expect(updated.outs).toEqual(made.outs);

    const info = KINDS.find((k) => k.kind === kind)!.info;
    if (info.adopt) {
      // Adoption (the dynamic entry's import) takes the object over by a create naming it.
      const adopted = await runtimeFor(kind, new Host()).create(s, { ...checked.inputs, [info.adopt]: made.id });
      expect(adopted.id).toBe(made.id);
      const again = await runtimeFor(kind, new Host()).read(s, adopted.id, adopted.outs);
      expect(again.props).toEqual(adopted.outs);
    }
    if (info.importId) {
      // `pulumi import` reads with nothing recorded, by the key the kind is imported by.
      const key = info.importId.startsWith("the number") ? String(made.outs.number) : made.id;
      const imported = await runtimeFor(kind, new Host()).read(s, key, {});
      expect(imported.id).toBe(made.id);
      const again = await runtimeFor(kind, new Host()).read(s, made.id, imported.props);
      expect(again.props).toEqual(imported.props);
    }
  });
});

describe("a hand edit of a field the program leaves to the service", () => {
  it("is read as a change of what was recorded, and an up leaves it to the service", async () => {
    const s = settings("2024");
    const agents = runtimeFor("Agent", new Host());
    const inputs = (await agents.check(s, {}, ROWS.Agent.inputs(accounts["2024"], "2024"))).inputs;
    const made = await agents.create(s, inputs);
    expect(made.outs.ivrNavigationMode).toBe("default");
    await clients["2024"].agents.update(made.id, { ivr_navigation_mode: "off" });
    const read = await runtimeFor("Agent", new Host()).read(s, made.id, made.outs);
    expect(read.props).toEqual({ ...made.outs, ivrNavigationMode: "off" });
    expect(await agents.diff(s, made.id, read.props ?? {}, inputs)).toMatchObject({ changes: false });
  });
});
