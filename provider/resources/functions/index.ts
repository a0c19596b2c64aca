// The registry of functions: adding a function is its declaration (functions/<name>.ts) and one
// line here. The plugin's Invoke, the package schema, the SDKs and both TypeScript entries (generated
// by `npm run gen`) read this list.
import { registeredFunction } from "../kit/function.js";
import { getAccount } from "./get-account.js";
import { getActions } from "./get-actions.js";
import { getAgent } from "./get-agent.js";
import { getAgents } from "./get-agents.js";
import { getCall } from "./get-call.js";
import { getPhoneNumber } from "./get-phone-number.js";
import { getPhoneNumbers } from "./get-phone-numbers.js";
import { getUsage } from "./get-usage.js";
import { getVoice } from "./get-voice.js";
import { getVoices } from "./get-voices.js";
import { getWebhooks } from "./get-webhooks.js";

/** Every function this release serves, in the order the schema and the entries list them. */
export const FUNCTIONS = [
  registeredFunction(getVoice),
  registeredFunction(getVoices),
  registeredFunction(getAgent),
  registeredFunction(getAgents),
  registeredFunction(getPhoneNumber),
  registeredFunction(getPhoneNumbers),
  registeredFunction(getActions),
  registeredFunction(getWebhooks),
  registeredFunction(getCall),
  registeredFunction(getAccount),
  registeredFunction(getUsage),
] as const;

/** A function of the provider ("getVoice", ...). */
export type FunctionName = (typeof FUNCTIONS)[number]["name"];
