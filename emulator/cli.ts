#!/usr/bin/env node
// `npm run emulator -- [--host H] [--port N] [--db PATH] [--token T ...] [--seed] [--log] [--fault JSON ...]
//   [--fault-seed N] [--rate-limit R[/B]] [--api 2023|2024] [--service-defaults] [--answers JSON]
//   [--calls] [--call-step-ms N] [--webhook-timeout-ms N] [--webhook-attempts N] [--webhook-backoff-ms N]`
// Prints the base URL as the first line of stdout once it accepts connections.
import { randomBytes } from "node:crypto";
import { Command, InvalidArgumentError, Option } from "commander";
import type { z } from "zod";
import { AnswerModesSchema, type AnswerModes } from "./answers.js";
import { FaultRuleSchema, FaultSeedSchema, type FaultRuleInput } from "./fault-rule.js";
import type { RateLimitOptions } from "./rate-limit.js";
import { startEmulator } from "./server.js";

const collect = (value: string, previous: string[]) => [...previous, value];
const parsePort = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError("must be a port number, 0 to 65535");
  return n;
};
/** A JSON option value parsed by its schema; a refusal names each bad path (`what` at the top). */
function parseJsonOption<T>(v: string, schema: z.ZodType<T>, what: string, example: string): T {
  let json: unknown;
  try {
    json = JSON.parse(v);
  } catch {
    throw new InvalidArgumentError(`must be JSON, e.g. ${example}`);
  }
  const r = schema.safeParse(json);
  if (!r.success)
    throw new InvalidArgumentError(r.error.issues.map((i) => `${i.path.join(".") || what}: ${i.message}`).join("; "));
  return r.data;
}
const parseFault = (v: string, previous: FaultRuleInput[]) => [
  ...previous,
  parseJsonOption(v, FaultRuleSchema, "rule", '{"route":"/v1/agents/create","status":503,"count":1}'),
];
const parseAnswers = (v: string): AnswerModes =>
  parseJsonOption(v, AnswerModesSchema, "answers", '{"credentials":"masked","unsetAsNull":true}');
const parseSeed = (v: string) => {
  const r = FaultSeedSchema.safeParse(/^\d+$/.test(v) ? Number(v) : Number.NaN);
  if (!r.success) throw new InvalidArgumentError("must be an integer from 0 to 4294967295");
  return r.data;
};

const positiveInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a whole number above 0");
  return n;
};

/** "R" or "R/B": requests a second and the burst, both positive (the burst at least 1). */
function parseRateLimit(value: string): RateLimitOptions {
  const m = /^(\d+(?:\.\d+)?)(?:\/(\d+))?$/.exec(value.trim());
  const perSecond = Number(m?.[1]);
  const burst = m?.[2] === undefined ? undefined : Number(m[2]);
  if (!m || !(perSecond > 0) || (burst !== undefined && burst < 1))
    throw new InvalidArgumentError("expected R or R/B: R requests a second (> 0), B the burst (an integer >= 1)");
  return burst === undefined ? { perSecond } : { perSecond, burst };
}

const program = new Command()
  .name("voiceagent-emulator")
  .description("A local emulator of the voice agent calling service (/v1).")
  .option("--host <host>", "address to bind", "127.0.0.1")
  .option("--port <port>", "port to listen on (0 picks a free one)", parsePort, 8787)
  .option("--db <path>", "SQLite file to keep data in (default: in memory)")
  .option(
    "--token <token>",
    "accepted bearer token (repeatable; also VOICEAGENT_EMULATOR_TOKENS, comma separated)",
    collect,
    [],
  )
  .option("--seed", "create voices, an action, a webhook and phone numbers for each token's user", false)
  .option("--log", "write a JSON request log to stderr (tokens redacted)", false)
  .option(
    "--fault <json>",
    'a fault rule active from the start (repeatable), e.g. {"phase":"after","route":"/v1/agents/create","reset":true,"rate":0.2}',
    parseFault,
    [],
  )
  .option(
    "--fault-seed <n>",
    "seed of the PRNG behind fault rates (0 to 4294967295; random if omitted, printed to stderr)",
    parseSeed,
  )
  .option(
    "--rate-limit <r[/b]>",
    "limit each token to R requests a second with bursts of B (default R); past it: 429 with Retry-After",
    parseRateLimit,
  )
  .option(
    "--answers <json>",
    'answer in the service\'s own words, e.g. {"credentials":"masked","unsetAsNull":true,"order":"reversed","listLag":{"listings":5}}',
    parseAnswers,
  )
  .option("--validate-responses", "check every response against its schema (slower; a self-check)", false)
  .option("--service-defaults", "answer with the service's defaults for fields a request left out", false)
  .option("--calls", "calls progress in real time and deliver their events to the agents' webhooks", false)
  .option("--call-step-ms <ms>", "with --calls: the time between two steps of a call", positiveInt, 1000)
  .option("--webhook-timeout-ms <ms>", "with --calls: how long a webhook delivery may take", positiveInt, 5000)
  .option("--webhook-attempts <n>", "with --calls: attempts per event before it is dropped", positiveInt, 5)
  .option(
    "--webhook-backoff-ms <ms>",
    "with --calls: the wait before the first retry, doubled each time",
    positiveInt,
    1000,
  )
  .addOption(
    new Option("--api <generation>", "API generation to speak: 2023 (the interface) or 2024 (the current API)")
      .choices(["2023", "2024"])
      .default("2023"),
  )
  .parse();

const opts = program.opts<{
  host: string;
  port: number;
  db?: string;
  token: string[];
  seed: boolean;
  log: boolean;
  fault: FaultRuleInput[];
  faultSeed?: number;
  validateResponses: boolean;
  rateLimit?: RateLimitOptions;
  api: "2023" | "2024";
  serviceDefaults: boolean;
  answers?: AnswerModes;
  calls: boolean;
  callStepMs: number;
  webhookTimeoutMs: number;
  webhookAttempts: number;
  webhookBackoffMs: number;
}>();

const fromEnv = (process.env.VOICEAGENT_EMULATOR_TOKENS ?? "")
  .split(",")
  .map((t) => t.trim())
  .filter(Boolean);
let tokens = [...opts.token, ...fromEnv];
let generated: string | undefined;
if (tokens.length === 0) {
  generated = `va_${randomBytes(18).toString("base64url")}`;
  tokens = [generated];
}

const emu = await startEmulator({
  host: opts.host,
  port: opts.port,
  db: opts.db ?? ":memory:",
  tokens,
  seed: opts.seed,
  faults: opts.fault,
  faultSeed: opts.faultSeed,
  validateResponses: opts.validateResponses,
  rateLimit: opts.rateLimit,
  api: opts.api,
  serviceDefaults: opts.serviceDefaults,
  answers: opts.answers,
  calls: opts.calls
    ? {
        stepMs: opts.callStepMs,
        webhooks: {
          timeoutMs: opts.webhookTimeoutMs,
          maxAttempts: opts.webhookAttempts,
          backoffMs: opts.webhookBackoffMs,
        },
      }
    : undefined,
  // With --calls, a failed webhook delivery is logged (warn) even without --log.
  logger: opts.log || opts.calls ? { level: opts.log ? "info" : "warn", stream: process.stderr } : false,
});
process.stdout.write(`${emu.url}\n`);
if (generated) process.stdout.write(`token ${generated}\n`);
// Printed so a run with rate rules can be replayed with --fault-seed.
process.stderr.write(`fault seed ${emu.faults.seed}\n`);
for (const [token, seed] of emu.seeds) {
  const who = token === generated ? "generated token" : `token #${tokens.indexOf(token) + 1}`;
  process.stderr.write(`seeded ${who}: numbers ${seed.numbers.join(", ")}; voices ${seed.voices.join(", ")}\n`);
}

let closing = false;
const shutdown = (signal: string) => {
  if (closing) return;
  closing = true;
  process.stderr.write(`${signal}: shutting down\n`);
  emu.close().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`error while closing: ${String(err)}\n`);
      process.exit(1);
    },
  );
};
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));
