// The service's six action types and two triggers (issue 50), through the real kind runtime (the
// dynamic provider's, as its shims call it) against the emulator in both dialects: each type's
// config is checked at preview naming the field, the interface (2023) refuses what it does not
// have at preview and on the wire, the current API (2024) makes and reads each type back with no
// change, a phrase edited outside Pulumi is drift that an update puts back, and a webhook the
// service holds without a method reads as POST, never as drift or a refusal.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { Host } from "../../provider/host.js";
import { KINDS } from "../../provider/resources/kinds/index.js";
import { httpRequest } from "../helpers/emulator.js";

const token = `actions-${randomUUID()}`;
let current: RunningEmulator;
let iface: RunningEmulator;
beforeAll(async () => {
  current = await startEmulator({ tokens: [token], seed: true, api: "2024" });
  iface = await startEmulator({ tokens: [token], seed: true, api: "2023" });
});
afterAll(async () => {
  await Promise.all([current?.close(), iface?.close()]);
});

const settingsOf = (emu: RunningEmulator, api: "2023" | "2024") => ({
  baseUrl: emu.url,
  token,
  config: { get: (k: string) => (k === "voiceagent:api" ? api : undefined) },
});
const action = () => runtimeFor("Action", new Host({ notes: () => {} }));

const SECRET = `sig-${randomUUID()}`;
const phrases = (phrase: string) => ({
  type: "action_trigger_phrase_based",
  phraseTriggers: [{ phrase, conditions: ["phrase_condition_type_contains"] }],
});

/** One program's action of each type, as a team writes it. */
const EACH_TYPE: Record<string, Record<string, unknown>> = {
  action_end_conversation: { type: "action_end_conversation", actionTrigger: phrases("goodbye") },
  action_transfer_call: {
    type: "action_transfer_call",
    config: { phoneNumber: "+15550100200" },
    actionTrigger: phrases("talk to a human"),
  },
  action_dtmf: { type: "action_dtmf", actionTrigger: { type: "action_trigger_function_call" } },
  action_external: {
    type: "action_external",
    config: {
      name: "lookup_patient",
      description: "Finds a patient by date of birth.",
      url: "https://api.clinic.example/patients",
      inputSchema: {
        type: "object",
        properties: { dob: { type: "string", format: "date" }, name: { type: "object", properties: { last: {} } } },
      },
      speakOnSend: true,
      speakOnReceive: false,
      processingMode: "muted",
    },
    signatureSecret: SECRET,
  },
  action_add_to_conference: {
    type: "action_add_to_conference",
    config: { phoneNumber: "+15550100300", placePrimaryOnHold: true },
  },
  action_set_hold: { type: "action_set_hold", actionTrigger: phrases("please hold") },
};

const reasons = async (api: "2023" | "2024", news: Record<string, unknown>) =>
  ((await action().check(settingsOf(api === "2024" ? current : iface, api), {}, news)).failures ?? []).map(
    (f) => f.reason,
  );

describe("Action: the six types at preview", () => {
  it("the current API takes each type with its own config and trigger", async () => {
    for (const [type, news] of Object.entries(EACH_TYPE)) expect(await reasons("2024", news), type).toEqual([]);
  });

  it("each type's config and trigger are checked naming the field", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: "action_external", config: { name: "x", description: "d", speakOnSend: true } }, /^config\.url\b/],
      [{ type: "action_external", config: { url: "ftp://api.example/x" } }, /^config\.url\b/],
      [
        { type: "action_transfer_call", config: { phoneNumber: "+15550100200", url: "https://a.example" } },
        /^config\.url\b.*action_transfer_call/,
      ],
      [{ type: "action_add_to_conference" }, /^config\.phoneNumber\b.*action_add_to_conference/],
      [{ type: "action_transfer_call" }, /^config\.phoneNumber\b/],
      [{ type: "action_dtmf", actionTrigger: phrases("press one") }, /^actionTrigger\.type\b.*action_dtmf/],
      [
        { type: "action_external", ...EACH_TYPE.action_external, actionTrigger: phrases("look me up") },
        /^actionTrigger\.type\b.*action_external/,
      ],
      [
        { type: "action_set_hold", actionTrigger: { type: "action_trigger_phrase_based" } },
        /^actionTrigger\.phraseTriggers\b/,
      ],
      [
        {
          type: "action_set_hold",
          actionTrigger: { type: "action_trigger_phrase_based", phraseTriggers: [{ phrase: "" }] },
        },
        /^actionTrigger\.phraseTriggers\[0\]\.phrase\b/,
      ],
      [{ type: "action_set_hold", signatureSecret: SECRET }, /^signatureSecret\b/],
      [
        { type: "action_end_conversation", actionTrigger: { type: "action_trigger_phrase_based", phrases: ["bye"] } },
        /^actionTrigger\b.*"phrases"/,
      ],
    ];
    for (const [news, reason] of cases) {
      const found = await reasons("2024", news);
      expect(
        found.some((r) => reason.test(r)),
        `${JSON.stringify(news)}: ${found.join(" | ")}`,
      ).toBe(true);
      // No failure repeats the secret.
      expect(found.join(" ")).not.toContain(SECRET);
    }
  });

  it("the interface (2023) refuses the current API's types and phrase triggers at preview, saying so", async () => {
    for (const type of ["action_external", "action_add_to_conference", "action_set_hold"]) {
      const found = await reasons("2023", EACH_TYPE[type] ?? {});
      expect(
        found.some((r) => r.startsWith("type:") && r.includes("2023") && r.includes(type)),
        found.join(" | "),
      ).toBe(true);
    }
    const phrased = await reasons("2023", EACH_TYPE.action_transfer_call ?? {});
    expect(
      phrased.some((r) => r.startsWith("actionTrigger:") && r.includes("2023")),
      phrased.join(" | "),
    ).toBe(true);
    expect(await reasons("2023", { type: "action_transfer_call", config: { phoneNumber: "+15550100200" } })).toEqual(
      [],
    );
  });
});

describe("Action: the six types on the wire", () => {
  it("the interface's emulator refuses the current API's types, as the interface does", async () => {
    const res = await httpRequest(iface.url, "POST", "/v1/actions/create", token, {
      type: "action_set_hold",
      config: {},
    });
    expect(res.status).toBe(422);
  });

  it("the current API makes each type, reads it back with no change, and never shows the signature secret", async () => {
    const settings = settingsOf(current, "2024");
    for (const [type, news] of Object.entries(EACH_TYPE)) {
      const rt = action();
      const checked = await rt.check(settings, {}, news);
      expect(checked.failures ?? [], type).toEqual([]);
      const made = await rt.create(settings, checked.inputs);
      const live = await httpRequest(current.url, "GET", `/v1/actions?id=${made.id}`, token);
      expect(live.json.type, type).toBe(type);
      const reread = await action().read(settings, made.id, made.outs ?? {});
      const diff = await rt.diff(settings, made.id, reread.props ?? {}, checked.inputs);
      expect({ type, changes: diff.changes, changed: diff.changed }).toEqual({ type, changes: false, changed: [] });
      if (type === "action_external") {
        // Sent inside the config, where the service takes it; read back as the value sent.
        expect(live.json.config.signature_secret).toBe(SECRET);
        expect(live.json.config.input_schema.properties.name.properties).toEqual({ last: {} });
        expect(JSON.stringify(reread.props?.config)).not.toContain(SECRET);
      }
    }
  });

  it("a phrase edited outside Pulumi is a change of actionTrigger, and the update puts it back", async () => {
    const settings = settingsOf(current, "2024");
    const rt = action();
    const news = EACH_TYPE.action_transfer_call ?? {};
    const checked = await rt.check(settings, {}, news);
    const made = await rt.create(settings, checked.inputs);
    const edit = await httpRequest(current.url, "POST", `/v1/actions/update?id=${made.id}`, token, {
      type: "action_transfer_call",
      config: { phone_number: "+15550100200" },
      action_trigger: {
        type: "action_trigger_phrase_based",
        config: { phrase_triggers: [{ phrase: "operator", conditions: ["phrase_condition_type_contains"] }] },
      },
    });
    expect(edit.status).toBe(200);
    const drifted = await action().read(settings, made.id, made.outs ?? {});
    const diff = await rt.diff(settings, made.id, drifted.props ?? {}, checked.inputs);
    expect(diff.changed).toEqual(["actionTrigger"]);
    const updated = await rt.update(settings, made.id, drifted.props ?? {}, checked.inputs);
    const back = await httpRequest(current.url, "GET", `/v1/actions?id=${made.id}`, token);
    expect(back.json.action_trigger.config.phrase_triggers.map((p: { phrase: string }) => p.phrase)).toEqual([
      "talk to a human",
    ]);
    // A trigger the program drops is the model's function call again, not the phrase left behind.
    const dropped = await rt.check(
      settings,
      {},
      { type: "action_transfer_call", config: { phoneNumber: "+15550100200" } },
    );
    await rt.update(settings, made.id, updated.outs ?? {}, dropped.inputs);
    const plain = await httpRequest(current.url, "GET", `/v1/actions?id=${made.id}`, token);
    expect(plain.json.action_trigger.type).toBe("action_trigger_function_call");
  });
});

describe("Webhook: a method the service leaves unset", () => {
  it("reads as POST: no change, and pull would declare it", async () => {
    const made = await httpRequest(current.url, "POST", "/v1/webhooks/create", token, {
      url: "https://hooks.clinic.example/events",
      subscriptions: ["event_phone_call_ended"],
    });
    expect(made.status).toBe(200);
    expect(made.json.method ?? null).toBeNull();
    const settings = settingsOf(current, "2024");
    const rt = runtimeFor("Webhook", new Host({ notes: () => {} }));
    const checked = await rt.check(
      settings,
      {},
      {
        url: "https://hooks.clinic.example/events",
        subscriptions: ["event_phone_call_ended"],
        webhookId: made.json.id,
      },
    );
    const read = await rt.read(settings, made.json.id, {});
    expect(read.props?.method).toBe("POST");
    const diff = await rt.diff(settings, made.json.id, read.props ?? {}, checked.inputs);
    expect(diff.changes).toBe(false);
    const kind = KINDS.find((k) => k.info.kind === "Webhook")?.info;
    expect(kind?.pull?.refuse(made.json)).toBeUndefined();
  });
});
