import { COLLECTION_NAMES, type CollectionName, collections, routeName } from "../schemas/index.js";
import { ApiError } from "./errors.js";
import type { SendRoute } from "./transport.js";

/**
 * The service's collections, from the wire layer's collection table (schemas/collections.ts):
 * each holds one sort of object and has its own routes (`/v1/<collection>/...`); its list and
 * get-by-id routes are extension routes, which a server may not have (docs/contract.md), and the
 * current API's own collections are missing from a server of the interface.
 */
export const COLLECTIONS = COLLECTION_NAMES;
export type { CollectionName };
/** @deprecated One collection of the service: its one name is {@link CollectionName}. */
export type Collection = CollectionName;
/** @deprecated The former name of {@link CollectionName}. */
export type ExtensionKind = CollectionName;
/** @deprecated The former name of {@link COLLECTIONS}. */
export const EXTENSION_KINDS = COLLECTIONS;

/** How the client learns which extension routes the server has. */
export type ExtensionsSetting = "auto" | "all" | "none";

/** Which extension routes a server has, learned once per client. */
export interface Capabilities {
  /** True when the server has the extension routes of `collection` (list, get by id, create/update). */
  has(collection: CollectionName): Promise<boolean>;
  /** Records what a list call already showed, so no probe is needed. */
  learn(collection: CollectionName, present: boolean): void;
}

/**
 * A probe answers each question once: `GET /v1/<collection>/list?page=1&size=1`. A list route cannot
 * answer 404 for a missing object, so a 404 or 405 there can only mean the route is missing; any
 * other failure is passed on (it says nothing about the route). With the setting "all" or "none"
 * nothing is probed.
 */
export function createCapabilities(sendRoute: SendRoute, setting: ExtensionsSetting = "auto"): Capabilities {
  const known = new Map<CollectionName, Promise<boolean>>();
  return {
    has(collection) {
      // The current API's own collections have every route wherever they exist at all.
      if (collections[collection].generation === "2024") return Promise.resolve(true);
      if (setting !== "auto") return Promise.resolve(setting === "all");
      let answer = known.get(collection);
      if (!answer) {
        const c = collections[collection];
        answer = sendRoute(routeName(c, "list"), c.routes.list, { query: { page: 1, size: 1 } }).then(
          () => true,
          (err: unknown) => {
            if (isRouteMissing(err)) return false;
            known.delete(collection);
            throw err;
          },
        );
        known.set(collection, answer);
      }
      return answer;
    },
    learn(collection, present) {
      if (setting === "auto") known.set(collection, Promise.resolve(present));
    },
  };
}

/**
 * Whether a collection's list route is there, asked with one page of one item: it answers
 * ("present"), it is missing (404 or 405, see isRouteMissing), or another failure says nothing
 * ("unknown"). What tells a 404 of an object from a 404 of a route the server does not have.
 */
export function listRouteOf(list: { page(page: number, size: number): Promise<unknown> }) {
  return list.page(1, 1).then(
    (): "present" => "present",
    (err: unknown): "missing" | "unknown" => (isRouteMissing(err) ? "missing" : "unknown"),
  );
}

/** True for the answer a server gives to a route it does not have: 404 or 405 on a list route. */
export function isRouteMissing(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 405);
}
