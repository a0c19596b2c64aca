export { Agent, type AgentArgs } from "./agent.js";
export { Voice, type VoiceArgs } from "./voice.js";
export { PhoneNumber, type PhoneNumberArgs } from "./phone-number.js";
export { PurchasedNumber, type PurchasedNumberArgs } from "./purchased-number.js";
export { Call, type CallArgs } from "./call.js";
export { Action, type ActionArgs, type ActionConfigArgs } from "./action.js";
export { Webhook, type WebhookArgs } from "./webhook.js";
