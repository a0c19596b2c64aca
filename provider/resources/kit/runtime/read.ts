import type { z } from "zod";
import { listRouteOf, type CollectionName, type VoiceAgentClient } from "../../../client/index.js";
import { collections } from "../../../schemas/index.js";
import { inputsOf } from "../derive.js";
import { isGone } from "../errors.js";
import { Refusal } from "../refusal.js";
import type { KindReadRequest } from "../requests.js";
import type { ReadResult } from "../results.js";
import { isUnsettled, unsettledRefusal } from "../unsettled.js";
import type { KindParts } from "./kind-parts.js";

/**
 * Read (a refresh, an import): the live object as outputs; gone only when shown gone; an unsettled
 * create settled by a complete listing; anything less keeps what was recorded, with a note.
 */
export function readOf<S extends z.ZodRawShape, R extends { id: string }, W>({
  def,
  at,
  settled,
  outs,
  recorded,
  fail,
}: KindParts<S, R, W>): (req: KindReadRequest) => Promise<ReadResult> {
  return async (req) => {
    const { id, properties: state } = req;
    const where = at(req);
    const { scope, client } = where;
    if (isUnsettled(id)) {
      let said: Awaited<ReturnType<typeof settled>>;
      try {
        said = await settled(where, state);
      } catch (err) {
        said = { unknown: err instanceof Error ? err.message : String(err) };
      }
      if ("absent" in said) {
        scope.note(
          `voiceagent:${def.kind} ${id}: a complete listing of the service's ${def.collection} shows that its create made ` +
            "nothing: it leaves the state, and the next `pulumi up` makes it.",
        );
        return { gone: true };
      }
      if ("unknown" in said) {
        scope.note(unsettledRefusal(def, id, said.unknown).message);
        return { gone: false, id, outputs: state };
      }
      const o = outs(said.live, state);
      return { gone: false, id: said.live.id, outputs: o, inputs: inputsOf(def, o) };
    }
    // An import or a program's `.get()` reads one object the state does not hold yet: read alone.
    const importing = Object.keys(state).length === 0;
    // A refresh's reads: the first of this collection lists it, the rest are answered from that listing.
    if (!importing) client.pages.open(def.collection);
    // A server without this kind's read route cannot be asked: keep what was recorded.
    if (!def.read || (def.extensionReads && !(await client.capabilities.has(def.collection))))
      return { gone: false, id, outputs: state };
    try {
      const live = await def.read({ ...where, id, recorded: recorded(state) });
      if (!live) return { gone: true };
      const o = outs(live, state);
      // An import may name the object by another key (a number by its E.164): the id recorded
      // is the object's own, as a create would have recorded it.
      return { gone: false, id: importing ? live.id : id, outputs: o, inputs: inputsOf(def, o) };
    } catch (err) {
      if (isGone(err)) {
        if (await collectionAnswers(client, def.collection)) return { gone: true };
        // Every route answers 404 at a voiceagent:baseUrl that is not the service (another
        // service, a gateway routing nothing under /v1): dropping what was recorded would make
        // the next `up` create it all again.
        scope.note(
          `voiceagent:${def.kind} ${id}: the service answered 404, but its ${def.collection} list answers no better at voiceagent:baseUrl, ` +
            "so the object is neither seen nor proved gone: kept as recorded. Check that voiceagent:baseUrl is the service's address.",
        );
        return { gone: false, id, outputs: state };
      }
      // Neither seen nor proved gone (client/listing.ts): kept as recorded, never dropped.
      if (err instanceof Refusal && err.code === "E_UNSEEN") {
        scope.note(`voiceagent:${def.kind} ${id}: ${err.message}`);
        return { gone: false, id, outputs: state };
      }
      throw fail("read", err);
    }
  };
}

/**
 * Whether the service answers for `collection` at this client's base URL, so that a 404 of one of
 * its objects says the object is gone rather than that no such route is there: the capability
 * probe's answer (asked once per client) for the interface's collections, one page of the list
 * for the current API's own (which the probe takes as present wherever they exist at all).
 */
async function collectionAnswers(client: VoiceAgentClient, collection: CollectionName): Promise<boolean> {
  if (collections[collection].generation === "2023") return client.capabilities.has(collection).catch(() => false);
  return (await listRouteOf(client.lists[collection])) === "present";
}
