import type { EndpointName } from "../schemas/index.js";
import { ApiError } from "./errors.js";
import type { Send } from "./transport.js";

/**
 * The service's collections: each holds one sort of object and has its own routes
 * (`/v1/<collection>/...`); its list and get-by-id routes are extension routes, which a server
 * may not have (docs/contract.md).
 */
export const COLLECTIONS = ["agents", "voices", "actions", "webhooks", "numbers", "calls"] as const;
/** One collection of the service. */
export type Collection = (typeof COLLECTIONS)[number];
/** @deprecated The former name of {@link Collection}. */
export type ExtensionKind = Collection;
/** @deprecated The former name of {@link COLLECTIONS}. */
export const EXTENSION_KINDS = COLLECTIONS;

/** How the client learns which extension routes the server has. */
export type ExtensionsSetting = "auto" | "all" | "none";

const LIST_ROUTE = {
  agents: "listAgents",
  voices: "listVoices",
  actions: "listActions",
  webhooks: "listWebhooks",
  numbers: "listNumbers",
  calls: "listCalls",
} as const satisfies Record<Collection, EndpointName>;

/** Which extension routes a server has, learned once per client. */
export interface Capabilities {
  /** True when the server has the extension routes of `collection` (list, get by id, create/update). */
  has(collection: Collection): Promise<boolean>;
  /** Records what a list call already showed, so no probe is needed. */
  learn(collection: Collection, present: boolean): void;
}

/**
 * A probe answers each question once: `GET /v1/<collection>/list?page=1&size=1`. A list route cannot
 * answer 404 for a missing object, so a 404 or 405 there can only mean the route is missing; any
 * other failure is passed on (it says nothing about the route). With the setting "all" or "none"
 * nothing is probed.
 */
export function createCapabilities(send: Send, setting: ExtensionsSetting = "auto"): Capabilities {
  const known = new Map<Collection, Promise<boolean>>();
  return {
    has(collection) {
      if (setting !== "auto") return Promise.resolve(setting === "all");
      let answer = known.get(collection);
      if (!answer) {
        answer = send(LIST_ROUTE[collection], { query: { page: 1, size: 1 } }).then(
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

/** True for the answer a server gives to a route it does not have: 404 or 405 on a list route. */
export function isRouteMissing(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 405);
}
