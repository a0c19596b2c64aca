// A small account built in memory with the wire types, for plan and audit tests.
import { randomUUID } from "node:crypto";
import type { Action, Agent, PhoneNumber, Voice, Webhook } from "../../provider/client/index.js";
import { type Account, emptyAccount } from "../../provider/cli/account.js";

const USER = randomUUID();

/** Builders for each kind, with defaults a test can override. */
export const make = {
  voice: (o: Partial<Voice> = {}): Voice => ({
    id: randomUUID(),
    user_id: USER,
    type: "voice_base",
    voice_name: "alloy",
    pitch: 0,
    rate: 1,
    ...o,
  }),
  action: (o: Partial<Action> = {}): Action => ({
    id: randomUUID(),
    user_id: USER,
    type: "action_end_conversation",
    config: {},
    ...o,
  }),
  webhook: (o: Partial<Webhook> = {}): Webhook => ({
    id: randomUUID(),
    user_id: USER,
    url: "https://hooks.example.com/va",
    method: "POST",
    subscriptions: ["event_message"],
    ...o,
  }),
  agent: (voice: Voice, o: Partial<Agent> = {}): Agent => ({
    id: randomUUID(),
    user_id: USER,
    prompt: "You are the support line.",
    actions: [],
    voice,
    initial_message: null,
    webhook: null,
    ...o,
  }),
  number: (number: string, agent: Agent | null, o: Partial<PhoneNumber> = {}): PhoneNumber => ({
    id: randomUUID(),
    user_id: USER,
    active: true,
    inbound_agent: agent,
    number,
    ...o,
  }),
};

/**
 * A typical account: two voices, an action, a webhook, a support agent using all of them, a sales
 * agent, two numbers bound to them and one unbound number.
 */
export function typicalAccount(): Account & { support: Agent; sales: Agent } {
  const alloy = make.voice();
  const rachel = make.voice({ voice_name: "rachel", type: "voice_eleven_labs", pitch: 1 });
  const hangUp = make.action();
  const hook = make.webhook();
  const support = make.agent(alloy, { actions: [hangUp], webhook: hook, initial_message: "Hello!" });
  const sales = make.agent(rachel, { prompt: "You are the sales line." });
  return {
    ...emptyAccount(),
    voices: [alloy, rachel],
    actions: [hangUp],
    webhooks: [hook],
    agents: [support, sales],
    numbers: [
      make.number("+15550010001", support),
      make.number("+15550010002", sales),
      make.number("+15550010003", null),
    ],
    gaps: {},
    support,
    sales,
  };
}
