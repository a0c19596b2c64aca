import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyServerOptions } from "fastify";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { z } from "zod";
import { adminRoutes } from "./admin.js";
import { Answers } from "./answers.js";
import { CallBench } from "./calls/bench.js";
import { callAdminRoutes } from "./calls/admin.js";
import { Store } from "./db.js";
import { errorHandler, notFoundHandler } from "./errors.js";
import { FaultInjector } from "./faults.js";
import { addNumbers } from "./fleet.js";
import { requestHook } from "./hooks.js";
import { RateLimiter } from "./rate-limit.js";
import type { Emulator, EmulatorOptions } from "./options.js";
import type { Caller } from "./request-context.js";
import { serviceRoutes } from "./routes.js";
import { serviceDefaultsHook } from "./service-defaults.js";
import { seedUser, type SeedResult } from "./seed.js";
import { VoiceAgentService } from "./service.js";
import { createStats, resetStats } from "./stats.js";

/**
 * Builds the emulator app: every endpoint of the interface and the docs/decisions.md §1 extensions,
 * validated with the same zod schemas as the client, over SQLite.
 * @example
 * const emu = await buildEmulator({ tokens: ["dev-token"], seed: true });
 * const res = await emu.app.inject({ method: "GET", url: "/v1/voices/list", headers: { authorization: "Bearer dev-token" } });
 */
export async function buildEmulator(opts: EmulatorOptions): Promise<Emulator> {
  if (opts.tokens.length === 0) throw new Error("buildEmulator: give at least one token");
  const store = typeof opts.db === "object" ? opts.db : new Store(opts.db ?? ":memory:");
  const answers = new Answers(opts.answers ?? {});
  const service = new VoiceAgentService(store, answers);
  const api = opts.api ?? "2023";
  const faults = new FaultInjector(opts.faults ?? [], opts.faultSeed);
  const stats = createStats();
  const callers = new Map<string, Caller>(opts.tokens.map((t) => [t, store.userFor(t)]));
  const callerFor = (token: string): Caller => {
    const c = callers.get(token);
    if (!c) throw new Error("unknown token");
    return c;
  };
  // Only admin requests look a token up by its caller: a handful of tokens, so a scan is fine.
  const tokenOf = (caller: Caller) => [...callers].find(([, c]) => c === caller)?.[0] ?? "";
  const seeds = new Map<string, SeedResult>();
  const seed = (token: string): SeedResult => {
    const c = callerFor(token);
    const result = seedUser(store, service, c.userId, c.seq, api);
    seeds.set(token, result);
    return result;
  };
  if (opts.seed) opts.tokens.forEach(seed);
  // After the seed: what the account held from the start is listed at once.
  answers.watch(store);

  const app = Fastify({
    logger: loggerOptions(opts.logger),
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    // The interface's GET /v1/agents/ and the SDKs' /v1/agents are one route there; the current
    // API redirects the slash form (registered in serviceRoutes).
    routerOptions: { ignoreTrailingSlash: api === "2023" },
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(opts.validateResponses ? serializerCompiler : () => (data) => JSON.stringify(data));
  app.decorateRequest("caller", null);
  app.decorateRequest("routeKey", "");

  // The service speaks JSON only: any other body type is 415, not a string handed to validation.
  app.removeAllContentTypeParsers();
  // Empty JSON bodies are allowed: numbers/cancel, calls/end and numbers/buy are sent without one.
  const defaultJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, undefined);
    defaultJson(req, text, done);
  });

  // Hook and handlers set on the root before the plugins below: their child scopes inherit them.
  app.addHook(
    "onRequest",
    requestHook({ callers, stats, faults, limiter: opts.rateLimit && new RateLimiter(opts.rateLimit) }),
  );
  // On the root before the routes are registered, so every route's answer passes through it.
  if (opts.serviceDefaults) app.addHook("onSend", serviceDefaultsHook(api));
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler(api));

  await app.register(swagger, {
    openapi: {
      info: { title: "Voice agent calling service (emulator)", version: packageVersion() },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(serviceRoutes, { service, faults, stats, api });
  await app.register(adminRoutes, {
    faults,
    stats,
    seed: (caller) => seed(tokenOf(caller)),
    addNumbers: (caller, input) => addNumbers(store, service, caller.userId, input),
  });
  // Calls that progress and their webhook events, when asked for (calls/bench.ts).
  const calls = opts.calls ? new CallBench(store, api, opts.calls, app.log) : undefined;
  await app.register(callAdminRoutes, { bench: calls });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  app.get("/healthz", { schema: { hide: true } }, async () => ({ ok: true }));

  app.addHook("onClose", async () => {
    calls?.close();
    if (typeof opts.db !== "object") store.close();
  });
  await app.ready();
  return {
    app,
    store,
    service,
    faults,
    stats,
    resetStats: () => resetStats(stats),
    seeds,
    seed,
    addNumbers: (token, input) => addNumbers(store, service, callerFor(token).userId, input),
    calls,
  };
}

function loggerOptions(logger: FastifyServerOptions["logger"]): FastifyServerOptions["logger"] {
  if (!logger) return false;
  const base = typeof logger === "object" ? logger : {};
  return {
    ...base,
    redact: { paths: ["req.headers.authorization", "headers.authorization"], censor: "[REDACTED]" },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: req.url,
        id: req.id,
      }),
    },
  };
}

function packageVersion(): string {
  const require = createRequire(import.meta.url);
  return z.object({ version: z.string() }).parse(require("voiceagent-emulator/package.json")).version;
}
