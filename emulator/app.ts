import { randomUUID } from "node:crypto";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { createRequire } from "node:module";
import { z } from "zod";
import { endpoints, type EndpointDef } from "pulumi-voiceagent/schemas";
import { Store } from "./db.js";
import { FaultInjector, type FaultRuleInput } from "./faults.js";
import { registerAdminRoutes } from "./admin.js";
import { routeHandlers } from "./routes.js";
import { HttpFailure, VoiceAgentService } from "./service.js";
import { seedUser, type SeedResult } from "./seed.js";

/** The caller behind a request, after auth. */
export interface Caller {
  userId: string;
  seq: number;
}

declare module "fastify" {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** How to build an emulator. */
export interface EmulatorOptions {
  /** A SQLite file, ":memory:" (default), or an open Store. */
  db?: string | Store;
  /** Accepted bearer tokens; each maps to its own user. At least one. */
  tokens: string[];
  /** Fault rules active from the start. */
  faults?: FaultRuleInput[];
  /** Seed every token's user with voices, an action, a webhook and numbers. */
  seed?: boolean;
  /** Fastify/pino logger settings; off by default. The Authorization header is always redacted. */
  logger?: FastifyServerOptions["logger"];
  /** Largest accepted body in bytes (default 1 MiB; larger answers 413). */
  bodyLimit?: number;
  /**
   * Check every response against its schema before sending (a self-check of the emulator; its own
   * tests turn it on). Off by default: clients parse responses anyway, and it halves throughput.
   */
  validateResponses?: boolean;
}

/** A built emulator: the Fastify app and the parts tests and the CLI reach into. */
export interface Emulator {
  app: FastifyInstance;
  store: Store;
  service: VoiceAgentService;
  faults: FaultInjector;
  /** Requests received under /v1, by "METHOD /path" and in total. */
  stats: RequestStats;
  /** The seed of each token's user, when seeded. */
  seeds: Map<string, SeedResult>;
  /** Seeds the user of `token` (idempotent). */
  seed(token: string): SeedResult;
}

/** Counts of requests received under /v1. */
export interface RequestStats {
  total: number;
  byRoute: Record<string, number>;
}

const AUTH_EXEMPT = new Set(["/openapi.json", "/healthz"]);

/**
 * Builds the emulator app: every endpoint of the interface and the DESIGN.md §2 extensions,
 * validated with the same zod schemas as the client, over SQLite.
 * @example
 * const emu = await buildEmulator({ tokens: ["dev-token"], seed: true });
 * const res = await emu.app.inject({ method: "GET", url: "/v1/voices/list", headers: { authorization: "Bearer dev-token" } });
 */
export async function buildEmulator(opts: EmulatorOptions): Promise<Emulator> {
  if (opts.tokens.length === 0) throw new Error("buildEmulator: give at least one token");
  const store = typeof opts.db === "object" ? opts.db : new Store(opts.db ?? ":memory:");
  const service = new VoiceAgentService(store);
  const faults = new FaultInjector(opts.faults ?? []);
  const stats: RequestStats = { total: 0, byRoute: {} };
  const callers = new Map<string, Caller>(opts.tokens.map((t) => [t, store.userFor(t)]));
  const seeds = new Map<string, SeedResult>();
  const seed = (token: string): SeedResult => {
    const c = callers.get(token);
    if (!c) throw new Error("unknown token");
    const result = seedUser(store, service, c.userId, c.seq);
    seeds.set(token, result);
    return result;
  };
  if (opts.seed) opts.tokens.forEach(seed);

  const app = Fastify({
    logger: loggerOptions(opts.logger),
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(opts.validateResponses ? serializerCompiler : () => (data) => JSON.stringify(data));
  app.decorateRequest("caller", null);

  // The service speaks JSON only: any other body type is 415, not a string handed to validation.
  app.removeAllContentTypeParsers();
  // Empty JSON bodies are allowed: numbers/cancel, calls/end and numbers/buy are sent without one.
  const defaultJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, undefined);
    defaultJson(req, text, done);
  });

  app.addHook("onRequest", async (req, reply) => {
    // Set first, so every answer carries it: errors, 401s and 404s included.
    reply.header("x-request-id", req.id);
    const path = req.url.split("?")[0] ?? "";
    if (path.startsWith("/v1")) {
      stats.total += 1;
      const key = `${req.method} ${path}`;
      stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1;
    }
    if (AUTH_EXEMPT.has(path)) return;
    const header = req.headers.authorization;
    if (header === undefined) {
      return reply.code(401).header("www-authenticate", "Bearer").send({ detail: "Not authenticated" });
    }
    const m = /^Bearer ([^\s]+)$/.exec(header);
    if (!m?.[1]) {
      return reply.code(401).header("www-authenticate", "Bearer").send({ detail: "Malformed Authorization header: expected 'Bearer <token>'" });
    }
    const caller = callers.get(m[1]);
    if (!caller) return reply.code(401).header("www-authenticate", "Bearer").send({ detail: "Invalid token" });
    req.caller = caller;

    if (!path.startsWith("/v1")) return;
    const fault = faults.decide(req.method, path);
    if (!fault) return;
    if (fault.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
    if (fault.reset) {
      reply.hijack();
      req.raw.socket.destroy();
      return;
    }
    if (fault.status !== undefined) {
      if (fault.retryAfterSeconds !== undefined) reply.header("retry-after", String(fault.retryAfterSeconds));
      return reply.code(fault.status).send({ detail: `Injected fault: ${fault.status}` });
    }
  });

  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext === "querystring" ? "query" : (err.validationContext ?? "body");
      const detail = err.validation.map((v) => {
        const path = v.instancePath.split("/").filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
        const missing = /received undefined/.test(v.message ?? "");
        return {
          loc: [where, ...path],
          msg: missing ? "Field required" : (v.message ?? "invalid value"),
          type: missing ? "missing" : v.keyword,
        };
      });
      return reply.code(422).send({ detail });
    }
    if (err instanceof HttpFailure) return reply.code(err.status).send({ detail: err.detail });
    const status = typeof err.statusCode === "number" ? err.statusCode : 500;
    if (status === 413) return reply.code(413).send({ detail: "Request body too large" });
    if (status === 415) return reply.code(415).send({ detail: "Unsupported Media Type: send application/json" });
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ detail: status === 400 ? "Malformed JSON body" : err.message });
    }
    req.log.error({ err }, "unhandled error");
    return reply.code(500).send({ detail: "Internal Server Error" });
  });

  const paths = new Map<string, Set<string>>();
  app.setNotFoundHandler((req, reply) => {
    const path = (req.url.split("?")[0] ?? "").replace(/(.)\/+$/, "$1");
    const allowed = paths.get(path ?? "");
    if (allowed) {
      return reply.code(405).header("allow", [...allowed].join(", ")).send({ detail: "Method Not Allowed" });
    }
    return reply.code(404).send({ detail: "Not Found" });
  });

  await app.register(swagger, {
    openapi: {
      info: { title: "Voice agent calling service (emulator)", version: packageVersion() },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });

  const handlers = routeHandlers(service);
  for (const [name, e] of Object.entries(endpoints)) {
    const ep: EndpointDef = e;
    const handler = handlers[name as keyof typeof handlers];
    const path = ep.path.replace(/(.)\/+$/, "$1");
    paths.set(path, (paths.get(path) ?? new Set()).add(ep.method));
    app.route({
      method: ep.method,
      url: ep.path,
      schema: {
        operationId: name,
        tags: [ep.documented ? "interface" : "extension"],
        ...(ep.query ? { querystring: ep.query } : {}),
        ...(ep.body ? { body: ep.body } : {}),
        response: { 200: ep.response },
      },
      handler: async (req) => handler(req.caller as Caller, req.query as never, req.body as never),
    });
  }
  registerAdminRoutes(app, { faults, stats, seed: (req) => seed(tokenOf(req.headers.authorization)) });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  app.get("/healthz", { schema: { hide: true } }, async () => ({ ok: true }));

  app.addHook("onClose", async () => {
    if (typeof opts.db !== "object") store.close();
  });
  await app.ready();
  return { app, store, service, faults, stats, seeds, seed };
}

function tokenOf(header: string | undefined): string {
  return header?.replace(/^Bearer /, "") ?? "";
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
