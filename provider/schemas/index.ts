/**
 * The wire shapes of the voice agent calling service, as zod schemas: the single source of every
 * request and response type used by the client, the emulator and the Pulumi resources.
 * @example
 * import { AgentSchema } from "pulumi-voiceagent/schemas";
 * const agent = AgentSchema.parse(await response.json());
 */
export * from "./values.js";
export * from "./open-enum.js";
export * from "./common.js";
export * from "./limits.js";
export * from "./read.js";
export * from "./current.js";
export * from "./current-read.js";
export * from "./errors.js";
export * from "./voice.js";
export * from "./action.js";
export * from "./webhook.js";
export * from "./agent.js";
export * from "./phone-number.js";
export * from "./call.js";
export * from "./events.js";
export * from "./prompt.js";
export * from "./account-connection.js";
export * from "./vector-database.js";
export * from "./usage.js";
export * from "./linked-number.js";
export * from "./secrets.js";
export * from "./endpoints.js";
export * from "./collections.js";
