import type { z } from "zod";
import {
  COLLECTION_NAMES,
  type CollectionDef,
  type CollectionName,
  collections,
  type ItemOf,
  type RoutesOf,
  routeName,
} from "../schemas/index.js";
import { matchesSent } from "./match.js";
import type { CollectionPagers, Pager } from "./pager.js";
import type { PageReads } from "./page-reads.js";
import { createOnce, type CreateContext } from "./reconcile.js";

// The calls a collection of the table has by the shape of its routes, derived from its entry
// (schemas/collections.ts): get by id, list, create exactly once, update by id. The interface's
// collections have calls of their own (agents.ts, voices.ts, actions.ts, webhooks.ts: each
// generation's body; numbers.ts: a number's buy and cancel; calls.ts: a call's end); a collection
// only the current API has gets these with no code, and its kind's own calls (a steering pool, a
// secret the service does not echo) join them.

type BodyIn<E> = E extends { body: infer B extends z.ZodType } ? z.input<B> : never;

/** The collections only the current API has whose routes are get, list, create and update. */
export type TableCollectionName = {
  [C in CollectionName]: (typeof collections)[C] extends {
    generation: "2024";
    routes: { get: unknown; create: unknown; update: unknown };
  }
    ? C
    : never;
}[CollectionName];

/** The calls of one collection, from its table entry. */
export interface TableNamespace<C extends TableCollectionName> {
  /** One object by id (404: ApiNotFoundError). */
  get(id: string): Promise<ItemOf<C>>;
  /**
   * Makes one object exactly once: an unknown outcome is checked in the list, matching every field
   * sent but the credentials (the table's `secrets`: a service may mask them or leave them out).
   */
  create(body: BodyIn<RoutesOf<C>["create"]>): Promise<ItemOf<C>>;
  /** Changes one object by id: the fields given replace those it had. */
  update(id: string, body: BodyIn<RoutesOf<C>["update"]>): Promise<ItemOf<C>>;
  /** Its pages. */
  list: Pager<ItemOf<C>>;
}

/** The calls of every such collection, by name. */
export type TableNamespaces = { readonly [C in TableCollectionName]: TableNamespace<C> };

const isTableCollection = (c: CollectionName): c is TableCollectionName => {
  const def: CollectionDef = collections[c];
  return def.generation === "2024" && ["get", "create", "update"].every((r) => r in def.routes);
};

function tableNamespace(c: TableCollectionName, list: Pager<{ id: string }>, ctx: CreateContext, pages: PageReads) {
  const def: CollectionDef = collections[c];
  const { sendRoute } = ctx.transport;
  /** Route `r` of the entry, answering one object of the collection (what get, create and update answer). */
  const route = (r: "get" | "create" | "update") => {
    const found = def.routes[r];
    if (!found) throw new Error(`the collection table's ${c} has no ${r} route`);
    return { ...found, response: def.item };
  };
  const noun = c.replace(/s$/, "").replaceAll("_", " ");
  /** A refresh's reads of the collection, from its listing (page-reads.ts). */
  const reads = pages.collection(c, { list: () => list.listing(), keyOf: (item) => item.id });
  return {
    get: (id: string) => reads.read(id, () => sendRoute(routeName(def, "get"), route("get"), { query: { id } })),
    create: (body: unknown) =>
      pages.writing(c, () =>
        createOnce(
          {
            collection: c,
            noun,
            body,
            unechoed: def.secrets,
            overlaps: (other) => matchesSent(body, other, def.secrets),
            send: (deadline) => sendRoute(routeName(def, "create"), route("create"), { body, deadline }),
            list: list.listing,
            matches: (item) => matchesSent(body, item, def.secrets),
          },
          ctx,
        ),
      ),
    update: (id: string, body: unknown) =>
      pages.writing(c, () => sendRoute(routeName(def, "update"), route("update"), { query: { id }, body })),
    list,
  };
}

/** The calls of every collection of the table shaped as get, list, create and update. */
export function tableNamespaces(lists: CollectionPagers, ctx: CreateContext, pages: PageReads): TableNamespaces {
  // Each namespace sends its own collection's routes and reads its own item schema, so holds
  // ItemOf<C>; Object.fromEntries cannot carry that to each key's type.
  return Object.fromEntries(
    COLLECTION_NAMES.filter(isTableCollection).map((c) => [c, tableNamespace(c, lists[c], ctx, pages)]),
  ) as TableNamespaces;
}
