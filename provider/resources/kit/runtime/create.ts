import type { z } from "zod";
import { ApiBookkeepingError, ApiOutcomeUnknownError, ApiSchemaError } from "../../../client/index.js";
import { bodiesOf, notKept } from "../derive.js";
import { PartialCreateError, unreadableCreate, untrackedCreate } from "../errors.js";
import type { KindCreateRequest } from "../requests.js";
import type { CreateResult } from "../results.js";
import { unsettledCreate } from "../unsettled.js";
import type { KindParts } from "./kind-parts.js";

/** Create: the kind's create with the bodies from its fields; an object made but not finished is kept as a partial create. */
export function createOf<S extends z.ZodRawShape, R extends { id: string }, W>({
  def,
  refreshOver,
  parse,
  at,
  fail,
  outs,
}: KindParts<S, R, W>): (req: KindCreateRequest) => Promise<CreateResult> {
  return async (req) => {
    refreshOver(req);
    const inputs = parse(req.properties);
    const where = at(req);
    let live: R;
    try {
      live = await def.create({ ...where, inputs, bodies: bodiesOf(def, inputs) });
    } catch (err) {
      // The service answered with the object's id but the rest could not be read: it exists.
      // Losing the id would leave it untracked and the next up would make another (a bought
      // number would go on costing money), so the engine keeps it as a partial create.
      if (err instanceof ApiSchemaError && err.receivedId)
        throw unreadableCreate(def.kind, err.receivedId, err.summary, inputs);
      // The service made it and answered; only the bookkeeping after the answer failed.
      if (err instanceof ApiBookkeepingError && err.madeId)
        throw untrackedCreate(def.kind, err.madeId, err.summary, inputs);
      // It may have made the object, and nothing showed it: kept unsettled, so no later run makes another.
      if (err instanceof ApiOutcomeUnknownError && err.unsettled) throw unsettledCreate(def, inputs, err);
      throw fail("create", err, where.client);
    }
    const o = outs(live, inputs);
    const dropped = notKept(def, o, inputs);
    if (dropped.length) {
      throw new PartialCreateError(
        `voiceagent:${def.kind} create: the service made ${live.id} but did not keep ${dropped.join(", ")}. ` +
          "It is tracked in the state; run `pulumi up` again to set them, or check that the service supports them.",
        live.id,
        o,
        dropped.map((f) => `${f} not kept`),
      );
    }
    return { id: live.id, outputs: o };
  };
}
