/**
 * A local emulator of the voice agent calling service: Fastify + SQLite, the same zod schemas as
 * the client. Used by the demo, the examples and every test.
 * @example
 * import { startEmulator } from "voiceagent-emulator";
 * const emu = await startEmulator({ tokens: ["dev-token"], seed: true });
 */
export { buildEmulator, type Caller, type Emulator, type EmulatorOptions, type RequestStats } from "./app.js";
export { startEmulator, type RunningEmulator } from "./server.js";
export { Store, type Kind } from "./db.js";
export { FaultInjector, FaultRuleSchema, type FaultRule, type FaultRuleInput } from "./faults.js";
export { seededNumbers, seedUser, type SeedResult } from "./seed.js";
export { HttpFailure, VoiceAgentService } from "./service.js";
