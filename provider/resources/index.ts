export { Agent, type AgentArgs, type AgentOutputs } from "./agent.js";
export { Voice, type VoiceArgs, type VoiceOutputs } from "./voice.js";
export { PhoneNumber, type PhoneNumberArgs, type PhoneNumberOutputs, type PhoneNumberState } from "./phone-number.js";
export { PurchasedNumber, type PurchasedNumberArgs, type PurchasedNumberOutputs, type PurchasedNumberState } from "./purchased-number.js";
export { Call, type CallArgs, type CallOutputs, type CallState } from "./call.js";
export { Action, type ActionArgs, type ActionConfigArgs, type ActionOutputs } from "./action.js";
export { Webhook, type WebhookArgs, type WebhookOutputs } from "./webhook.js";
export type { Deployed, OutputsOf } from "./outputs.js";
