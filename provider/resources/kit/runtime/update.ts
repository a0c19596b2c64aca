import type { z } from "zod";
import { ApiError } from "../../../client/index.js";
import { bodiesOf, diffOf, notKept, withLocalInputs } from "../derive.js";
import { PartialCreateError } from "../errors.js";
import type { LifecycleRequest, Props } from "../kind.js";
import { Refusal } from "../refusal.js";
import type { KindUpdateRequest } from "../requests.js";
import type { UpdateResult } from "../results.js";
import { UNKNOWN } from "../unknown.js";
import { unsettledRefusal, isUnsettled } from "../unsettled.js";
import type { KindParts } from "./kind-parts.js";

/**
 * Update: the kind's update with the bodies from its fields; a write whose answer was lost is read
 * back, and done when it converged; a kind that cannot change in place is read back instead.
 */
export function updateOf<S extends z.ZodRawShape, R extends { id: string }, W>(
  k: KindParts<S, R, W>,
): (req: KindUpdateRequest) => Promise<UpdateResult> {
  const { def, refreshOver, parse, at, recorded, outs, fail } = k;
  return async (req) => {
    const { id, olds } = req;
    refreshOver(req);
    if (isUnsettled(id)) throw unsettledRefusal(def, id);
    const inputs = parse(req.news);
    const where = at(req);
    // A kind that cannot change in place is updated only when the engine finishes a partial
    // create: read the object back, so its recorded outputs become what the service holds.
    if (!def.update) return { outputs: await readBack(k, where, id, inputs, olds) };
    try {
      const live = await def.update({
        ...where,
        id,
        inputs,
        recorded: recorded(olds),
        bodies: bodiesOf(def, inputs),
        olds,
      });
      return { outputs: live ? outs(live, inputs) : withLocalInputs(def, olds, inputs) };
    } catch (err) {
      const converged = await tookEffect(k, where, id, inputs, err);
      if (converged) return { outputs: converged };
      throw fail("update", err, where.client);
    }
  };
}

/** What an update with nothing to send answers (see `KindRuntime.unsent`). */
export function unsentOf<S extends z.ZodRawShape, R extends { id: string }, W>({
  def,
  parse,
}: KindParts<S, R, W>): (req: Pick<KindUpdateRequest, "olds" | "news">) => UpdateResult {
  return ({ olds, news }) => {
    return { outputs: withLocalInputs(def, olds, parse(news)) };
  };
}

/** What a preview of an update answers (see `KindRuntime.previewUpdate`). */
export function previewUpdateOf<S extends z.ZodRawShape, R extends { id: string }, W>({
  def,
}: KindParts<S, R, W>): (req: { olds: Props; oldInputs: Props; news: Props }) => Props {
  return ({ olds, oldInputs, news }) => {
    const out: Props = { ...olds };
    const fields: Record<string, { unset?: string | undefined } | undefined> = def.fields;
    for (const key of Object.keys(oldInputs)) {
      if (key in news) continue;
      const unset = fields[key]?.unset;
      if (unset === "service-decides" || unset === "service-assigns") out[key] = UNKNOWN;
      else delete out[key];
    }
    for (const [name, o] of Object.entries(def.outputs)) if (!o.fixed) out[name] = UNKNOWN;
    return { ...out, ...news };
  };
}

/** After a write whose answer was lost, the live object tells whether it took effect: its outputs when it converged. */
async function tookEffect<S extends z.ZodRawShape, R extends { id: string }, W>(
  { def, outs }: KindParts<S, R, W>,
  at: LifecycleRequest,
  id: string,
  inputs: z.output<z.ZodObject<S>>,
  err: unknown,
): Promise<Props | undefined> {
  if (!(err instanceof ApiError) || !err.mayHaveActed || !def.read) return undefined;
  const live = await def.read({ ...at, id, recorded: inputs }).catch(() => undefined);
  if (!live) return undefined;
  const o = outs(live, inputs);
  return notKept(def, o, inputs).length === 0 ? o : undefined;
}

/** The live object as outputs, for a kind that cannot change in place (see update). */
async function readBack<S extends z.ZodRawShape, R extends { id: string }, W>(
  { def, outs, recorded, fail }: KindParts<S, R, W>,
  at: LifecycleRequest,
  id: string,
  inputs: z.output<z.ZodObject<S>>,
  state: Props,
): Promise<Props> {
  const routes = !def.extensionReads || (await at.client.capabilities.has(def.collection));
  let live: R | undefined;
  try {
    live = routes && def.read ? await def.read({ ...at, id, recorded: { ...inputs, ...recorded(state) } }) : undefined;
  } catch (err) {
    throw fail("read", err);
  }
  if (!live) {
    if (!routes || !def.read) return withLocalInputs(def, state, inputs);
    throw new Refusal(
      "E_GONE",
      `voiceagent:${def.kind} ${id} is no longer on the service, and nothing was sent: run \`pulumi refresh\` to drop ` +
        `it from the state, then \`pulumi up\``,
    );
  }
  const o = outs(live, inputs);
  const differs = diffOf(def, o, inputs, id).changed;
  if (differs.length) {
    // Recorded as the service holds it, so the next preview shows the replacement it would take.
    throw new PartialCreateError(
      `voiceagent:${def.kind} ${id} holds other values of ${differs.join(", ")} than the program, and cannot change in place. ` +
        "Nothing was sent; its live values are now recorded. Change the program to match them, or see with `pulumi " +
        "preview` the replacement the next `pulumi up` would make.",
      id,
      o,
      differs.map((f) => `${f} differs`),
    );
  }
  return o;
}
