import type { Store } from "./db.js";
import type { VoiceAgentService } from "./service.js";

/** What a seed created (or found) for one user. */
export interface SeedResult {
  voices: string[];
  actions: string[];
  webhooks: string[];
  numbers: string[];
}

/**
 * The seeded phone numbers of the user with sequence `seq`: +1555SSS000N, distinct per user and
 * the same on every start, so a stack can name them. The first user gets +15550010001..+15550010004.
 */
export function seededNumbers(seq: number, count = 4): string[] {
  return Array.from(
    { length: count },
    (_, i) => `+1555${String(seq).padStart(3, "0")}${String(i + 1).padStart(4, "0")}`,
  );
}

/**
 * Gives a user what the documented endpoints need but cannot create: voices, an end-of-conversation
 * action, a webhook and active numbers. Idempotent: a user seeded before is left as it is.
 */
export function seedUser(
  store: Store,
  service: VoiceAgentService,
  userId: string,
  seq: number,
  api: "2023" | "2024" = "2023",
): SeedResult {
  const numbers = seededNumbers(seq);
  const first = numbers[0] ?? "";
  if (store.getByKey("number", first)) {
    return {
      voices: store.list<{ id: string }>("voice", userId, 1, 100).items.map((v) => v.id),
      actions: store.list<{ id: string }>("action", userId, 1, 100).items.map((a) => a.id),
      webhooks: store.list<{ id: string }>("webhook", userId, 1, 100).items.map((w) => w.id),
      numbers,
    };
  }
  return store.tx(() => {
    // The current API has no voice_base, and each type its own fields.
    const voices =
      api === "2024"
        ? [
            service.createVoice(userId, {
              type: "voice_azure",
              voice_name: "en-US-JennyNeural",
              pitch: null,
              rate: null,
            }),
            service.createVoice(userId, { type: "voice_eleven_labs", voice_id: "rachel" }),
            service.createVoice(userId, { type: "voice_rime", speaker: "river" }),
          ]
        : [
            service.createVoice(userId, { type: "voice_base", voice_name: "alloy", pitch: 0, rate: 1 }),
            service.createVoice(userId, { type: "voice_azure", voice_name: "en-US-JennyNeural", pitch: 0, rate: 1 }),
            service.createVoice(userId, { type: "voice_eleven_labs", voice_name: "rachel", pitch: 1, rate: 1 }),
          ];
    const action = service.createAction(userId, { type: "action_end_conversation", config: {} });
    const webhook = service.createWebhook(userId, {
      url: "https://hooks.example.com/voiceagent",
      method: "POST",
      subscriptions: ["event_message", "event_phone_call_ended"],
    });
    for (const n of numbers) service.addNumber(userId, n);
    return { voices: voices.map((v) => v.id), actions: [action.id], webhooks: [webhook.id], numbers };
  });
}
