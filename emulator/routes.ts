import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  COLLECTION_NAMES,
  type CollectionDef,
  collections,
  endpoints,
  type EndpointDef,
  type EndpointName,
  type ParsedBodyOf,
  type ParsedQueryOf,
  type ResponseOf,
} from "pulumi-voiceagent/schemas";
import { renderCurrent, requestToInterface } from "./current.js";
import { CurrentCollections } from "./current-collections.js";
import { currentRoutes } from "./current-routes.js";
import type { FaultInjector } from "./faults.js";
import { contractIssues } from "./contract.js";
import { spoilItems } from "./fault-rule.js";
import { applyFault, goneSignal } from "./hooks.js";
import { callerOf, pathOf, type Caller } from "./request-context.js";
import { HttpFailure } from "./http-failure.js";
import { tableOf } from "./db.js";
import type { VoiceAgentService } from "./service.js";
import { countFault, countWrite, type RequestStats } from "./stats.js";

type Handler<N extends EndpointName> = (
  caller: Caller,
  query: ParsedQueryOf<N>,
  body: ParsedBodyOf<N>,
) => ResponseOf<N>;

/** The list routes of the interface's collections (the collection table names them). */
type ListName = {
  [C in keyof typeof collections]: (typeof collections)[C] extends { endpoints: { list: infer L } } ? L : never;
}[keyof typeof collections];

/** A handler of any route, its query and body parsed by the route's own schemas. */
type AnyHandler = (caller: Caller, query: never, body: never) => unknown;

/**
 * One handler per endpoint name: the table the service routes are registered from. The list
 * routes are not here: every collection's is derived from the collection table (listHandlers).
 */
export function routeHandlers(s: VoiceAgentService): { [N in Exclude<EndpointName, ListName>]: Handler<N> } {
  return {
    createAgent: (c, _q, b) => s.createAgent(c.userId, b),
    getAgent: (c, q) => s.getAgent(c.userId, q.id),
    updateAgent: (c, q, b) => s.updateAgent(c.userId, q.id, b),
    updateNumber: (c, q, b) => s.updateNumber(c.userId, q.phone_number, b),
    cancelNumber: (c, q) => s.cancelNumber(c.userId, q.phone_number),
    createCall: (c, _q, b) => s.createCall(c.userId, b),
    endCall: (c, q) => s.endCall(c.userId, q.id),
    updateVoice: (c, q, b) => s.updateVoice(c.userId, q.id, b),

    getVoice: (c, q) => s.getVoice(c.userId, q.id),
    getAction: (c, q) => s.getAction(c.userId, q.id),
    getWebhook: (c, q) => s.getWebhook(c.userId, q.id),
    getCall: (c, q) => s.getCall(c.userId, q.id),
    getNumber: (c, q) => s.getNumber(c.userId, q.phone_number),
    createVoice: (c, _q, b) => s.createVoice(c.userId, b),
    createAction: (c, _q, b) => s.createAction(c.userId, b),
    createWebhook: (c, _q, b) => s.createWebhook(c.userId, b),
    updateAction: (c, q, b) => s.updateAction(c.userId, q.id, b),
    updateWebhook: (c, q, b) => s.updateWebhook(c.userId, q.id, b),
    buyNumber: (c, _q, b) => s.buyNumber(c.userId, b),
  };
}

/**
 * The list route of every interface collection, by its endpoint name, from the collection table: a
 * page of the collection's table, oldest first.
 */
export function listHandlers(s: VoiceAgentService): Map<string, AnyHandler> {
  const out = new Map<string, AnyHandler>();
  for (const c of COLLECTION_NAMES) {
    const def: CollectionDef = collections[c];
    const list = def.endpoints?.list;
    const table = tableOf(c);
    if (list)
      out.set(list, (caller: Caller, q: { page: number; size: number }) =>
        s.list(table, caller.userId, q.page, q.size),
      );
  }
  return out;
}

/** What the service routes reach. */
export interface ServiceRouteDeps {
  service: VoiceAgentService;
  faults: FaultInjector;
  stats: RequestStats;
  /** The API generation spoken (see EmulatorOptions.api). */
  api: "2023" | "2024";
}

/**
 * Every /v1 endpoint of the interface and the docs/decisions.md §1 extensions, validated with the client's
 * zod schemas. Registered as a child of the app, it inherits the app's auth and before-fault hook
 * and its error handler. A POST whose handler returned has committed its write (better-sqlite3 is
 * synchronous): it is counted, and only then may an after-commit fault spoil the reply.
 */
export const serviceRoutes: FastifyPluginAsyncZod<ServiceRouteDeps> = async (app, { service, faults, stats, api }) => {
  const handlers = new Map<string, AnyHandler>([...Object.entries(routeHandlers(service)), ...listHandlers(service)]);
  const current = api === "2024";
  /** A handler has returned: a POST has committed its write; count it, then an after-commit fault may spoil the reply. */
  const committed = async (req: FastifyRequest, reply: FastifyReply, writes: boolean, result: unknown) => {
    if (writes) countWrite(stats, req.routeKey);
    if (!faults.has("after")) return result;
    const path = pathOf(req.url);
    const action = faults.decide("after", req.method, path, req.headers.host);
    if (!action) return result;
    countFault(stats, "after", req.routeKey);
    const answer = action.items ? spoilItems(result, action.items) : result;
    return (await applyFault(reply, action, (ms) => faults.delay(ms, req.method, path, goneSignal(reply)))) ?? answer;
  };
  if (current) {
    // A FastAPI-style server answers the slash form of a route with a redirect and no body.
    app.get("/v1/agents/", { schema: { hide: true } }, async (req, reply) => {
      const query = req.url.includes("?") ? req.url.slice(req.url.indexOf("?")) : "";
      return reply.code(307).header("location", `/v1/agents${query}`).send();
    });
  }
  for (const [name, e] of Object.entries(endpoints)) {
    const ep: EndpointDef = e;
    const handler = handlers.get(name);
    if (!handler) throw new Error(`the emulator has no handler for route ${name}`);
    const writes = ep.method === "POST";
    app.route({
      method: ep.method,
      url: ep.path,
      schema: {
        operationId: name,
        tags: [ep.documented ? "interface" : "extension"],
        ...(ep.query ? { querystring: ep.query } : {}),
        ...(ep.body ? { body: current && ep.current ? ep.current : ep.body } : {}),
        // The current API's answer is rendered before the check where it carries more than the
        // interface's response reads (else the check would drop what 0.0.48 requires).
        response: { 200: current && ep.currentResponse ? ep.currentResponse : ep.response },
      },
      handler: async (req, reply) => {
        // The route's own schemas parsed query and body before this runs; the table is keyed by name.
        // A current-API body is read as the interface's first; the contract's limits and formats are
        // then checked on their own (contract.ts), nothing written.
        const body = current ? requestToInterface(req.body) : req.body;
        const broken = contractIssues(req.query, body);
        if (broken.length) throw new HttpFailure(422, broken);
        const answer = handler(callerOf(req), req.query as never, body as never);
        const result = current && ep.currentResponse ? renderCurrent(name as EndpointName, answer) : answer;
        return committed(req, reply, writes, result);
      },
    });
  }
  if (current) {
    // The routes only the current API has (the interface dialect answers them 404), from the wire
    // layer's collection table; their answers are the current API's shapes already.
    const cc = new CurrentCollections(service.store, service.answers);
    for (const r of currentRoutes(cc, service)) {
      const writes = r.def.method === "POST";
      app.route({
        method: r.def.method,
        url: r.def.path,
        schema: {
          operationId: r.name,
          tags: ["current"],
          ...(r.def.query ? { querystring: r.def.query } : {}),
          ...(r.def.body ? { body: r.def.body } : {}),
          response: { 200: r.def.response },
        },
        handler: async (req, reply) => {
          const broken = contractIssues(req.query, req.body);
          if (broken.length) throw new HttpFailure(422, broken);
          const result = r.handler(callerOf(req), req.query, req.body);
          return committed(req, reply, writes, result);
        },
      });
    }
    // After the response check (which reads both generations): the current API's shapes, for the
    // routes whose answer was not rendered before it.
    const byPath = new Map(
      Object.entries(endpoints)
        .filter(([, e]) => !("currentResponse" in e))
        .map(([name, e]) => [`${e.method} ${e.path}`, name as EndpointName]),
    );
    app.addHook("onSend", async (req, reply, payload) => {
      const name = byPath.get(`${req.method} ${pathOf(req.url)}`);
      if (!name || reply.statusCode !== 200 || typeof payload !== "string") return payload;
      return JSON.stringify(renderCurrent(name, JSON.parse(payload)));
    });
  }
  // Last, after the current API's shapes: the service's own words (answers.ts), where asked for.
  const { answers } = service;
  if (answers.active) {
    app.addHook("onSend", async (req, reply, payload) => {
      if (reply.statusCode !== 200 || typeof payload !== "string" || !pathOf(req.url).startsWith("/v1/"))
        return payload;
      const response: unknown = req.routeOptions.schema?.response;
      const schema = isRecord(response) ? response[200] : undefined;
      return JSON.stringify(answers.word(JSON.parse(payload), schema instanceof z.core.$ZodType ? schema : undefined));
    });
  }
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
