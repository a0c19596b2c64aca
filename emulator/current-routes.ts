import { z } from "zod";
import {
  COLLECTION_NAMES,
  type CurrentCollectionName,
  collections,
  currentOnlyRoutes,
  type CollectionDef,
  type EndpointDef,
  IdQuerySchema,
  PageQuerySchema,
  type RoutesOf,
  servedIn,
} from "pulumi-voiceagent/schemas";
import { renderCurrent } from "./current.js";
import { tableOf } from "./db.js";
import type { CurrentCollections } from "./current-collections.js";
import type { Caller } from "./request-context.js";
import type { VoiceAgentService } from "./service.js";

// Handlers of the routes only the current API (2024) has: one per route of the wire layer's
// collection table (provider/schemas/collections.ts) and of its routes outside collections. Typed
// from the table, so a route added there without a handler here does not compile.

/** A body the route's own schema has parsed: an object (a route without a body is not derived). */
const BodySchema = z.looseObject({});

type ParsedQuery<E> = E extends { query: infer S extends z.ZodType } ? z.output<S> : undefined;
type ParsedBody<E> = E extends { body: infer S extends z.ZodType } ? z.output<S> : undefined;
type Handler<E> = (caller: Caller, query: ParsedQuery<E>, body: ParsedBody<E>) => unknown;
type HandlersOf<R> = { [K in keyof R]: Handler<R[K]> };

/** The routes every collection of the current API has, whose handlers are derived from the table. */
type Derived = "list" | "get" | "create" | "update";

/** The handlers of collection C for the routes the derived ones serve: each may be its own. */
type DerivedHandlers<C extends CurrentCollectionName> = Partial<
  HandlersOf<Pick<RoutesOf<C>, Derived & keyof RoutesOf<C>>>
>;
/** The routes of C beyond those every collection has: each needs its handler. */
type OwnRoutes<C extends CurrentCollectionName> = Exclude<keyof RoutesOf<C>, Derived>;

/**
 * Every current-only collection's own handlers, by collection and route: one for each route beyond
 * list, get, create and update (a steering pool's), and any of those four whose derived handler (a
 * page of its table, get by id, create as sent, update of the fields given) does not serve
 * the collection's rules. A collection with nothing of its own is left out.
 */
export type CollectionHandlers = {
  [C in CurrentCollectionName as [OwnRoutes<C>] extends [never] ? never : C]: DerivedHandlers<C> &
    HandlersOf<Omit<RoutesOf<C>, Derived>>;
} & { [C in CurrentCollectionName as [OwnRoutes<C>] extends [never] ? C : never]?: DerivedHandlers<C> };

export function collectionHandlers(cc: CurrentCollections): CollectionHandlers {
  return {
    prompts: {
      create: (c, _q, b) => cc.createPrompt(c.userId, b),
      update: (c, q, b) => cc.updatePrompt(c.userId, q.id, b),
    },
    account_connections: {
      create: (c, _q, b) => cc.createConnection(c.userId, b),
      update: (c, q, b) => cc.updateConnection(c.userId, q.id, b),
      add_to_steering_pool: (c, q, b) => cc.addToSteeringPool(c.userId, q.id, b?.phone_number),
      remove_from_steering_pool: (c, q, b) => cc.removeFromSteeringPool(c.userId, q.id, b.phone_number),
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
  // The interface's collections are served by the endpoint table's routes (routes.ts), in both dialects.
  for (const cname of COLLECTION_NAMES) {
    const col: CollectionDef = collections[cname];
    if (servedIn(col, "2023")) continue;
    const table = tableOf(cname);
    // The route's own schemas have parsed query and body; read again here for their types.
    const handlers: Record<string, CurrentRoute["handler"]> = {
      list: (caller, q) => {
        const { page, size } = PageQuerySchema.parse(q);
        return cc.list(table, caller.userId, page, size);
      },
      get: (caller, q) => cc.get(table, caller.userId, IdQuerySchema.parse(q).id),
      create: (caller, _q, b) => cc.create(table, caller.userId, BodySchema.parse(b)),
      update: (caller, q, b) => cc.update(table, caller.userId, IdQuerySchema.parse(q).id, BodySchema.parse(b)),
      ...Reflect.get(byCollection, cname),
    };
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
