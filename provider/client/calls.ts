import { CallSchema, collections, type Call, type CallCreate } from "../schemas/index.js";
import { matchesSent } from "./match.js";
import { readAck, type ClientParts } from "./client-parts.js";
import type { CollectionPagers } from "./pager.js";
import { createOnce } from "./reconcile.js";

/**
 * The client's `calls`: place at most once, read, end, list. Declared, not inferred, so the docs
 * of its calls reach the client's published types.
 */
export interface CallsNamespace {
  /** Places a call at most once: an unknown outcome is checked in the list, never re-dialled. */
  create: (body: CallCreate) => Promise<Call>;
  get: (id: string) => Promise<Call>;
  /** Ends a call: any 2xx means it is ended; the call as answered, or undefined if unreadable. */
  end: (id: string) => Promise<Call | undefined>;
  list: CollectionPagers["calls"];
}

/** The client's `calls`, over the parts its client shares. */
export function callsClient(parts: ClientParts, calls: CollectionPagers["calls"]): CallsNamespace {
  const { send, wrote, ctx } = parts;
  const reads = parts.pages.collection("calls", { list: () => calls.listing(), keyOf: (c) => c.id });
  return {
    create: (body: CallCreate) =>
      wrote(
        "calls",
        createOnce(
          {
            collection: "calls",
            noun: "call",
            atMostOnce: true,
            body,
            unechoed: collections.calls.secrets,
            overlaps: (other) => matchesSent(body, other, collections.calls.secrets),
            send: (deadline) => send("createCall", { body, deadline }),
            list: calls.listing,
            matches: (c) => c.status !== "ended" && matchesSent(body, c, collections.calls.secrets),
          },
          ctx,
        ),
      ),
    get: (id: string) => reads.read(id, () => send("getCall", { query: { id } })),
    end: async (id: string) => readAck(CallSchema, await wrote("calls", send("endCall", { query: { id } }))),
    list: calls,
  };
}
