/**
 * pulumi-voiceagent/native: the same resources as the package's root entry, served by the
 * native plugin `pulumi-resource-voiceagent` (shipped in this package) instead of a dynamic
 * provider: `pulumi import` works, no provider code is written into the state, and `up` is faster.
 * Each class aliases its dynamic type, so changing the import moves a stack without replacing
 * anything. `Provider` configures an explicit provider (two accounts in one program).
 * @example
 * import * as va from "pulumi-voiceagent/native";
 * const voice = new va.Voice("warm", { voiceName: "alloy", pitch: 0, rate: 1 });
 * const agent = new va.Agent("support", { prompt: "You answer support calls.", voice: voice.id });
 * new va.PhoneNumber("main-line", { number: "+15550010001", inboundAgent: agent.id });
 */
import "../version-check.js"; // first: refuses an unsupported @pulumi/pulumi before any resource registers
export * from "../generated/native.js";
// Lookups (getVoice, getPhoneNumbers...), answered by the plugin's Invoke.
export * from "../generated/native-lookups.js";
export { Provider, type ProviderArgs } from "./provider-resource.js";
export type { ActionType, CallStatus, VoiceType, WebhookEvent, WebhookMethod } from "../schemas/values.js";
// The Fleet the plugin constructs (voiceagent:index:Fleet), as in every other language.
export { Fleet } from "../generated/native-fleet.js";
export * from "../fleet/exports.js";
