/**
 * A local emulator of the voice agent calling service: Fastify + SQLite, the same zod schemas as
 * the client. Used by the demo, the examples and every test.
 * @example
 * import { startEmulator } from "voiceagent-emulator";
 * const emu = await startEmulator({ tokens: ["dev-token"], seed: true, faultSeed: 42 });
 */
export { buildEmulator } from "./app.js";
export { AnswerModesSchema, type AnswerModes } from "./answers.js";
export type { Emulator, EmulatorOptions } from "./options.js";
export type { Caller } from "./request-context.js";
export { resetStats, type RequestStats } from "./stats.js";
export { startEmulator, type RunningEmulator } from "./server.js";
export { Store, type Kind, type Table } from "./db.js";
export {
  FaultRuleSchema,
  FaultSeedSchema,
  ItemFaultSchema,
  type FaultAction,
  type FaultPhase,
  type FaultRule,
  type FaultRuleInput,
  type ItemFault,
} from "./fault-rule.js";
export { RateLimiter, type RateLimitOptions } from "./rate-limit.js";
export { FaultInjector, type ListedFaultRule } from "./faults.js";
export { AddNumbersSchema, type AddNumbersInput, type AddNumbersResult } from "./fleet.js";
export { seededNumbers, seedUser, type SeedResult } from "./seed.js";
export { HttpFailure } from "./http-failure.js";
export { VoiceAgentService } from "./service.js";
export { CallBench, type CallsOptions } from "./calls/bench.js";
export { realClock, TestClock, type Clock, type ClockTimer } from "./calls/clock.js";
export type {
  DeliveryCounts,
  DeliveryFailure,
  DeliveryOptions,
  DeliveryRecord,
} from "./webhooks/delivery.js";
