import type { z } from "zod";
import { isGone } from "../errors.js";
import type { KindDeleteRequest } from "../requests.js";
import { isUnsettled, unsettledRefusal } from "../unsettled.js";
import type { KindParts } from "./kind-parts.js";

/** Delete: what the kind deletes (an unsettled create: what its create made, once found); a kind without a delete forgets, with its note. */
export function deleteOf<S extends z.ZodRawShape, R extends { id: string }, W>({
  def,
  refreshOver,
  at,
  settled,
  recorded,
  fail,
}: KindParts<S, R, W>): (req: KindDeleteRequest) => Promise<void> {
  return async (req) => {
    const { scope, id, properties } = req;
    refreshOver(req);
    if (!def.delete) {
      if (def.forgetNote) scope.note(`voiceagent:${def.kind} ${id}: ${def.forgetNote}`);
      return;
    }
    const where = at(req);
    let target = id;
    if (isUnsettled(id)) {
      // What its create made is what a destroy removes: found, it is deleted; proved absent, nothing is left to do.
      const said = await settled(where, properties).catch((err: unknown) => ({
        unknown: err instanceof Error ? err.message : String(err),
      }));
      if ("absent" in said) return;
      if ("unknown" in said) throw unsettledRefusal(def, id, said.unknown);
      target = said.live.id;
    }
    try {
      await def.delete({ ...where, id: target, recorded: recorded(properties) });
    } catch (err) {
      if (isGone(err)) return;
      throw fail("delete", err, where.client);
    }
  };
}
