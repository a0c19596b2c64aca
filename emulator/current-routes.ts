import type { z } from "zod";
import { type CollectionName, collections, currentOnlyRoutes, type EndpointDef } from "pulumi-voiceagent/schemas";
import { renderCurrent } from "./current.js";
import type { CurrentCollections } from "./current-collections.js";
import type { Caller } from "./request-context.js";
import type { VoiceAgentService } from "./service.js";

// Handlers of the routes only the current API (2024) has: one per route of the wire layer's
// collection table (provider/schemas/collections.ts) and of its routes outside collections. Typed
// from the table, so a route added there without a handler here does not compile.

type ParsedQuery<E> = E extends { query: infer S extends z.ZodType } ? z.output<S> : undefined;
type ParsedBody<E> = E extends { body: infer S extends z.ZodType } ? z.output<S> : undefined;
type Handler<E> = (caller: Caller, query: ParsedQuery<E>, body: ParsedBody<E>) => unknown;
type HandlersOf<R> = { [K in keyof R]: Handler<R[K]> };

/** Every collection's handlers, by collection and route. */
export type CollectionHandlers = { [C in CollectionName]: HandlersOf<(typeof collections)[C]["routes"]> };

export function collectionHandlers(cc: CurrentCollections): CollectionHandlers {
  return {
    prompts: {
      get: (c, q) => cc.getPrompt(c.userId, q.id),
      list: (c, q) => cc.list("prompt", c.userId, q.page, q.size),
      create: (c, _q, b) => cc.createPrompt(c.userId, b),
      update: (c, q, b) => cc.updatePrompt(c.userId, q.id, b),
    },
    account_connections: {
      get: (c, q) => cc.getConnection(c.userId, q.id),
      list: (c, q) => cc.list("account_connection", c.userId, q.page, q.size),
      create: (c, _q, b) => cc.createConnection(c.userId, b),
      update: (c, q, b) => cc.updateConnection(c.userId, q.id, b),
      add_to_steering_pool: (c, q, b) => cc.addToSteeringPool(c.userId, q.id, b?.phone_number),
      remove_from_steering_pool: (c, q, b) => cc.removeFromSteeringPool(c.userId, q.id, b.phone_number),
    },
    vector_databases: {
      get: (c, q) => cc.getVectorDatabase(c.userId, q.id),
      list: (c, q) => cc.list("vector_database", c.userId, q.page, q.size),
      create: (c, _q, b) => cc.createVectorDatabase(c.userId, b),
      update: (c, q, b) => cc.updateVectorDatabase(c.userId, q.id, b),
    },
  };
}

export function currentOnlyHandlers(
  cc: CurrentCollections,
  s: VoiceAgentService,
): HandlersOf<typeof currentOnlyRoutes> {
  return {
    // A number embeds its agent: rendered as the current API's (the prompt as an object).
    linkNumber: (c, _q, b) => renderCurrent("getNumber", s.linkNumber(c.userId, b)),
    getUsage: (c) => cc.usage(c.userId),
  };
}

/** One route only the current API has: its name (for OpenAPI), its definition and its handler. */
export interface CurrentRoute {
  name: string;
  def: EndpointDef;
  handler: (caller: Caller, query: unknown, body: unknown) => unknown;
}

/** Every route only the current API has, flattened from the table. */
export function currentRoutes(cc: CurrentCollections, s: VoiceAgentService): CurrentRoute[] {
  const out: CurrentRoute[] = [];
  const byCollection = collectionHandlers(cc);
  for (const [cname, col] of Object.entries(collections)) {
    const handlers: Record<string, CurrentRoute["handler"]> = Reflect.get(byCollection, cname);
    for (const [rname, def] of Object.entries(col.routes)) {
      const handler = handlers[rname];
      if (handler) out.push({ name: `${cname}.${rname}`, def, handler });
    }
  }
  const others = currentOnlyHandlers(cc, s);
  for (const [rname, def] of Object.entries(currentOnlyRoutes)) {
    // The table types each handler's query and body; the route's own schemas have parsed them.
    const handler: CurrentRoute["handler"] | undefined = Reflect.get(others, rname);
    if (handler) out.push({ name: rname, def, handler });
  }
  return out;
}
