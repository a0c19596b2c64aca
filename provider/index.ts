/**
 * pulumi-voiceagent: Pulumi resources for the voice agent calling service, plus the typed client
 * they are built on (also at `pulumi-voiceagent/client`).
 * @example
 * import * as va from "pulumi-voiceagent";
 * const voice = new va.Voice("warm", { voiceName: "alloy", pitch: 0, rate: 1 });
 * const agent = new va.Agent("support", { prompt: "You answer support calls.", voice: voice.id });
 * new va.PhoneNumber("main-line", { number: "+15550010001", inboundAgent: agent.id });
 */
export * from "./resources/index.js";
export {
  createClient,
  ApiError,
  ApiAuthError,
  ApiConnectionError,
  ApiNotFoundError,
  ApiRateLimitError,
  ApiSchemaError,
  ApiValidationError,
  type CreateClientInput,
  type VoiceAgentClient,
  type ClientOptions,
  type ClientOptionsInput,
  type RequestLogEvent,
} from "./client/index.js";
/** The wire shapes (zod schemas and types); also at `pulumi-voiceagent/schemas`. */
export * as schemas from "./schemas/index.js";
