/**
 * Everything the plugin takes from the kinds and the kit, loaded on the first request that needs
 * it rather than at start: zod schemas, got and the kinds are most of the plugin's load, and the
 * engine waits for the port line before it dials (pulumi v3.274.1 pkg/resource/plugin/plugin.go).
 */
export { changedSettings, configFailures, requestedVersion, settingsOf } from "./config.js";
export { kindFor } from "./kinds.js";
export { failureOf } from "./status.js";
export { PLAIN_TOKEN } from "../resources/kit/guard.js";
export { Refusal } from "../resources/kit/refusal.js";
export { containsUnknown } from "../resources/kit/unknown.js";
export { Configuration } from "../resources/kit/configuration.js";
export { RequestScope } from "../resources/kit/scope.js";
