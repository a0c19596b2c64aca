/**
 * pulumi-voiceagent: Pulumi resources for the voice agent calling service.
 * @example
 * import * as va from "pulumi-voiceagent";
 * const voice = new va.Voice("support-voice", { voiceName: "alloy", pitch: 0, rate: 1 });
 */
export * from "./client/index.js";
