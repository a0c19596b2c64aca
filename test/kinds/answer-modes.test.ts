// Every kind that creates, against a service that answers in its own words (issue 40): under each
// answer mode of the emulator (emulator/answers.ts), the first reply of the kind's create is lost
// after the object was committed, and then the service holds exactly one object, the create
// answers it, and a re-read (the next process's refresh) diffs with no change. Through the real
// kind runtime (the dynamic provider's, as its shims call it), in-process. Under a list that lags
// behind writes the replies are kept: the re-read must find each object by id all the same. The table is keyed by
// the registry's kind names, so a new kind does not compile until it has its row.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnswerModes, startEmulator, type RunningEmulator, type Table } from "voiceagent-emulator";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { Host } from "../../provider/host.js";
import { KINDS, type KindName } from "../../provider/resources/kinds/index.js";
import { httpRequest } from "../helpers/emulator.js";

/** Each mode the emulator can answer in; "as sent" is the control. */
const MODES: Record<string, AnswerModes> = {
  "as sent": {},
  "credentials masked": { credentials: "masked" },
  "credentials omitted": { credentials: "omitted" },
  "unset fields as null": { unsetAsNull: true },
  "lists newest first": { order: "reversed" },
  "a hosted API (masked, nulls, newest first)": { credentials: "masked", unsetAsNull: true, order: "reversed" },
  // Its replies kept: a lost one cannot be told from one that made nothing while the list lags
  // longer than the client's checks (docs/flaky-service.md, "What this does not guarantee").
  "lists lagging behind writes": { listLag: { listings: 20 } },
};
/** The modes under which a create's first reply is not lost (see above). */
const REPLIES_KEPT = new Set(["lists lagging behind writes"]);

/** What one row needs of the service before its create: objects made beforehand, by HTTP. */
interface Made {
  voice: string;
  agent: string;
  twilio: string;
  /** Active numbers the account holds (seeded). */
  numbers: string[];
}

/** One kind's row: its inputs (every property a program sets, its secrets included) and the table its objects are in. */
interface Row {
  inputs: (m: Made) => Record<string, unknown>;
  /** The emulator's table of its objects; undefined: the kind makes none (it binds one that exists). */
  table: Table | undefined;
}

const secret = (what: string) => `${what}-${randomUUID()}`;

const ROWS: Record<KindName, Row> = {
  Agent: {
    table: "agent",
    inputs: (m) => ({ prompt: "You book visits.", voice: m.voice, language: "es", name: "Clinic" }),
  },
  Voice: {
    table: "voice",
    inputs: () => ({ type: "voice_eleven_labs", vendorVoiceId: "rachel", apiKey: secret("el"), stability: 0.5 }),
  },
  // An external action: its signature secret may come back masked or not at all, and must never
  // decide which object a lost create made; its input schema is nested JSON, its processing mode unset.
  Action: {
    table: "action",
    inputs: () => ({
      type: "action_external",
      config: {
        name: "lookup_patient",
        description: "Finds a patient by date of birth.",
        url: "https://api.clinic.example/patients",
        inputSchema: { type: "object", properties: { dob: { type: "string", format: "date" } }, required: ["dob"] },
        speakOnSend: true,
        speakOnReceive: false,
      },
      signatureSecret: secret("sig"),
    }),
  },
  Webhook: {
    table: "webhook",
    inputs: () => ({ url: "https://hooks.example/clinic", subscriptions: ["event_message"] }),
  },
  PhoneNumber: { table: undefined, inputs: (m) => ({ number: m.numbers[0], inboundAgent: m.agent }) },
  PurchasedNumber: { table: "number", inputs: () => ({ areaCode: "415" }) },
  Call: {
    table: "call",
    inputs: (m) => ({ fromNumber: m.numbers[1], toNumber: "+15550009999", agent: m.agent }),
  },
  LinkedNumber: {
    table: "number",
    inputs: (m) => ({
      number: `+1628${String(Date.now() % 1e7).padStart(7, "0")}`,
      telephonyAccountConnection: m.twilio,
    }),
  },
  Prompt: {
    table: "prompt",
    // No description: a service that answers unset fields as null answers `description: null`.
    inputs: () => ({ content: "Collect the email.", collectFields: [{ name: "email", label: "Email address" }] }),
  },
  VectorDatabase: {
    table: "vector_database",
    inputs: () => ({ index: "clinic-docs", apiKey: secret("pc"), apiEnvironment: "us-east-1-aws" }),
  },
  AccountConnection: {
    table: "account_connection",
    inputs: () => ({ type: "account_connection_twilio", twilioAccountSid: "AC123", twilioAuthToken: secret("tw") }),
  },
};

const token = `answers-${randomUUID()}`;
const emus = new Map<string, RunningEmulator>();

beforeAll(async () => {
  for (const [name, answers] of Object.entries(MODES))
    emus.set(name, await startEmulator({ tokens: [token], seed: true, api: "2024", answers }));
});
afterAll(async () => {
  await Promise.all([...emus.values()].map((e) => e.close()));
});

/** What every row needs, made by HTTP before any fault. */
async function prepare(emu: RunningEmulator): Promise<Made> {
  const seed = emu.seeds.get(token)!;
  const post = async (path: string, body: unknown) => {
    const res = await httpRequest(emu.url, "POST", path, token, body);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return String(res.json.id);
  };
  const voice = seed.voices[0]!;
  return {
    voice,
    agent: await post("/v1/agents/create", { prompt: { content: "Hi." }, voice }),
    twilio: await post("/v1/account_connections/create", {
      type: "account_connection_twilio",
      credentials: { twilio_account_sid: "AC9", twilio_auth_token: secret("tw") },
    }),
    numbers: seed.numbers,
  };
}

describe.each(Object.keys(MODES))("a service answering with %s", (mode) => {
  const lose = !REPLIES_KEPT.has(mode);
  it(`every kind: the create's reply ${lose ? "lost" : "kept"}, one object made, and no change after a re-read`, async () => {
    const emu = emus.get(mode)!;
    const made = await prepare(emu);
    const user = emu.store.userFor(token).userId;
    const settings = {
      baseUrl: emu.url,
      token,
      config: { get: (k: string) => (k === "voiceagent:api" ? "2024" : undefined) },
    };
    const count = (table: Table | undefined) => (table ? emu.store.all(table, user).length : 0);
    for (const { kind } of KINDS) {
      const row = ROWS[kind];
      const host = new Host({ notes: () => {} });
      const rt = runtimeFor(kind, host);
      const checked = await rt.check(settings, {}, row.inputs(made));
      expect(checked.failures ?? [], kind).toEqual([]);
      const before = count(row.table);
      // The next POST (the create, or a binding's update) is committed and its reply lost.
      if (lose) emu.faults.add({ phase: "after", route: "*", method: "POST", reset: true, count: 1 });
      const created = await rt.create(settings, checked.inputs).catch((err: unknown) => {
        throw new Error(`${kind}: ${err instanceof Error ? err.message : String(err)}`);
      });
      expect(count(row.table) - before, `${kind}: objects made`).toBe(row.table ? 1 : 0);
      // The next `preview --refresh` runs in a process of its own.
      const reread = await runtimeFor(kind, new Host({ notes: () => {} })).read(settings, created.id, created.outs);
      expect(reread.id, kind).toBe(created.id);
      const diff = await rt.diff(settings, created.id, reread.props ?? {}, checked.inputs);
      expect({ kind, changes: diff.changes, changed: diff.changed }).toEqual({ kind, changes: false, changed: [] });
    }
  });
});
