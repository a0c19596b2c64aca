/**
 * pulumi-voiceagent: Pulumi resources for the voice agent calling service. The typed client they
 * are built on is at `pulumi-voiceagent/client` and the wire schemas at `pulumi-voiceagent/schemas`;
 * they are not loaded here, so a program pays only for the resources (got and zod load in the
 * provider process, where requests are made).
 * @example
 * import * as va from "pulumi-voiceagent";
 * const voice = new va.Voice("warm", { voiceName: "alloy", pitch: 0, rate: 1 });
 * const agent = new va.Agent("support", { prompt: "You answer support calls.", voice: voice.id });
 * new va.PhoneNumber("main-line", { number: "+15550010001", inboundAgent: agent.id });
 */
import "./version-check.js"; // first: refuses an unsupported @pulumi/pulumi before any resource registers
export * from "./generated/dynamic/index.js";
// Lookups (getVoice, getPhoneNumbers...): plain async functions over the client, and their Output forms.
export * from "./generated/dynamic/lookups.js";
export type { ActionType, CallStatus, VoiceType, WebhookEvent, WebhookMethod } from "./schemas/values.js";
export { Fleet } from "./fleet/dynamic.js";
export * from "./fleet/exports.js";
