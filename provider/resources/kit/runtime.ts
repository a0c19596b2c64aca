import type { z } from "zod";
import {
  ApiBookkeepingError,
  ApiError,
  ApiOutcomeUnknownError,
  ApiSchemaError,
  type ApiGeneration,
  listRouteOf,
  type CollectionName,
  type VoiceAgentClient,
} from "../../client/index.js";
import { collections } from "../../schemas/index.js";
import { autonamed } from "./autoname.js";
import { checkInputs } from "./check.js";
import {
  bodiesOf,
  diffOf,
  inputsOf,
  notKept,
  outputsOf,
  partialInputs,
  propertyNames,
  withLocalInputs,
} from "./derive.js";
import {
  explain,
  isGone,
  PartialCreateError,
  probeFailure,
  unreadableCreate,
  untrackedCreate,
  type FailureContext,
} from "./errors.js";
import type { KindDef, LifecycleRequest as At, Props } from "./kind.js";
import { Refusal } from "./refusal.js";
import { generationLacks, hasSince } from "./since.js";
import { UNKNOWN } from "./unknown.js";
import {
  diffKind,
  type CheckResult,
  type CreateResult,
  type KindDiff,
  type ReadResult,
  type UpdateResult,
} from "./results.js";
import type {
  KindCheckRequest,
  KindCreateRequest,
  KindDeleteRequest,
  KindDiffRequest,
  KindReadRequest,
  KindRequest,
  KindUpdateRequest,
} from "./requests.js";
import { isUnsettled, settle, UNSETTLED_OUTPUT, unsettledCreate, unsettledRefusal } from "./unsettled.js";

/**
 * The provider methods of one kind, each taking one request object (kit/requests.ts: the plain
 * provider's field names, with the request's scope). Properties are the kind's own: the
 * dynamic provider's recorded key (kit/migration.ts) is removed by the caller (the dynamic
 * adapter, dynamic.ts, or the native plugin) before they get here.
 */
export interface KindRuntime {
  check(req: KindCheckRequest): Promise<CheckResult>;
  diff(req: KindDiffRequest): Promise<KindDiff>;
  create(req: KindCreateRequest): Promise<CreateResult>;
  read(req: KindReadRequest): Promise<ReadResult>;
  update(req: KindUpdateRequest): Promise<UpdateResult>;
  /**
   * What an update with nothing to send answers (nothing is sent): the recorded outputs, with the
   * program's values of the properties the service never sees.
   */
  unsent(req: Pick<KindUpdateRequest, "olds" | "news">): UpdateResult;
  /**
   * What a preview of an update answers (nothing is sent): the program's inputs over the recorded
   * outputs, and unknown what the update may change that the program does not give: the outputs
   * the service computes and reads back (all but the `fixed` ones), and an input the program no
   * longer sets whose value the service decides (it keeps its own, which a refresh may not have seen).
   */
  previewUpdate(req: { olds: Props; oldInputs: Props; news: Props }): Props;
  delete(req: KindDeleteRequest): Promise<void>;
}

/** Wraps a kind's declaration with what every kind does alike. */
export function kindRuntime<S extends z.ZodRawShape, R extends { id: string }, W>(def: KindDef<S, R, W>): KindRuntime {
  type I = z.output<z.ZodObject<S>>;
  const names = propertyNames(def);
  /** A failure as the user reads it; given the client, a refused write names the API generation it was written for. */
  const fail = (op: FailureContext["op"], err: unknown, client?: VoiceAgentClient) =>
    err instanceof PartialCreateError
      ? err
      : explain(
          {
            kind: def.kind,
            op,
            names,
            ...(def.adopt ? { adopt: def.adopt } : {}),
            ...(client ? { generation: client.generation.describe() } : {}),
          },
          err,
        );
  const parse = (props: Props): I => def.input.parse(props);
  /** Recorded state, read leniently: a property an older release stored differently is left out. */
  const recorded = (props: Props): Partial<I> => partialInputs(def, props);
  /**
   * The one conversion from an answer to outputs, for create, adoption, update, read and import
   * alike: what a write records is what a read of the same object right after records, so a
   * refresh (and `voiceagent drift`) sees only what changed outside Pulumi
   * (test/provider/outputs-agree.test.ts holds every kind to it on both API generations).
   */
  const outs = (live: R, inputs: Props) => outputsOf(def, live, inputs);

  /** After a write whose answer was lost, the live object tells whether it took effect: its outputs when it converged. */
  async function tookEffect(at: At, id: string, inputs: I, err: unknown): Promise<Props | undefined> {
    if (!(err instanceof ApiError) || !err.mayHaveActed || !def.read) return undefined;
    const live = await def.read({ ...at, id, recorded: inputs }).catch(() => undefined);
    if (!live) return undefined;
    const o = outs(live, inputs);
    return notKept(def, o, inputs).length === 0 ? o : undefined;
  }

  /** The live object as outputs, for a kind that cannot change in place (see update). */
  async function readBack(at: At, id: string, inputs: I, state: Props): Promise<Props> {
    const routes = !def.extensionReads || (await at.client.capabilities.has(def.collection));
    let live: R | undefined;
    try {
      live =
        routes && def.read ? await def.read({ ...at, id, recorded: { ...inputs, ...recorded(state) } }) : undefined;
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

  /**
   * What a complete listing says of the create recorded under a provisional id, from its recorded
   * `state` (kit/unsettled.ts): the object it made, read back; absent; or unknown, and why.
   */
  async function settled(where: At, state: Props): Promise<{ live: R } | { absent: true } | { unknown: string }> {
    const known = recorded(state);
    const said = await settle(def, where, state, bodiesOf(def, known).create);
    if (!("found" in said)) return said;
    const live = def.read ? await def.read({ ...where, id: said.found, recorded: known }) : undefined;
    return live ? { live } : { unknown: `the list shows ${said.found}, but reading it back failed` };
  }

  /**
   * A create, update or delete ends the refresh of this kind's collection in this process: its reads
   * go one by one again (client/page-reads.ts), so no listing outlives the refresh it was taken for.
   * Check and diff do not: the engine diffs each resource right after its refresh read (its refresh
   * diff), and `refresh --run-program` checks each before reading it; neither sends a write.
   */
  const refreshOver = ({ scope }: KindRequest) => scope.configuration.existingClient()?.pages.close(def.collection);
  /** Where a lifecycle call of the kind runs: the request's scope, and the client of its configuration. */
  const at = ({ scope }: KindRequest): At => ({ scope, client: scope.client() });

  return {
    async check({ scope, olds, news: written, autonaming }) {
      const { configuration, urn, host } = scope;
      // Settings not known yet (a preview of a provider configured from outputs) are checked, and
      // the generation asked, once they are known; the inputs are checked now all the same.
      const { problems, resolved } = configuration.unknown ? { problems: [], resolved: undefined } : configuration;
      let news = written;
      let { inputs, known, failures } = checkInputs(def.input, news);
      const all = [...problems, ...failures];
      const given = new Set(Object.keys(news).filter((k) => news[k] !== undefined && news[k] !== null));
      if (all.length === 0 && def.refine) all.push(...def.refine(partialInputs(def, known), given));
      const field = Object.entries<{ boundOnce?: true }>(def.fields).find(([, f]) => f.boundOnce)?.[0];
      const held = field ? known[field] : undefined;
      if (all.length === 0 && urn && field && typeof held === "string")
        all.push(...[host.bindings.hold(def.kind, field, held, urn)].filter((f) => f !== undefined));
      if (all.length) return { inputs: news, failures: all };
      // The verdict must not depend on what this process read before (a preview approved here
      // would fail at up): with "auto", the generation is resolved for this configuration before
      // the first check that depends on it answers, by one read that carries none of the inputs.
      // Unknown settings leave it unknown: the check runs again at up, with them known.
      let gen: ApiGeneration | undefined;
      if (resolved && (def.generationCheck || def.autoname || hasSince(def.fields))) {
        try {
          gen = resolved.api === "auto" ? await scope.client().probeGeneration() : resolved.api;
        } catch (err) {
          return { inputs: news, failures: [probeFailure(def.kind, err)] };
        }
      }
      const named = def.autoname
        ? autonamed(
            def.autoname,
            { olds, news, autonaming, adopted: def.adopt !== undefined && given.has(def.adopt) },
            gen,
          )
        : undefined;
      if (named && "failure" in named) return { inputs: news, failures: [named.failure] };
      if (named) {
        // Checked as if the program had written it: a pattern may make a name the service refuses.
        news = { ...news, [named.property]: named.name };
        ({ inputs, known, failures } = checkInputs(def.input, news));
        if (failures.length) return { inputs: written, failures };
      }
      def.declared?.({ scope, inputs: partialInputs(def, known) });
      // What the generation lacks, from the fields' `since`, before what the kind says itself.
      const lacks = gen ? generationLacks(def.kind, def.fields, gen, partialInputs(def, known)) : [];
      if (lacks.length) return { inputs: news, failures: lacks };
      if (gen && def.generationCheck) {
        const said = def.generationCheck(gen, partialInputs(def, olds), partialInputs(def, known));
        if (said.failures?.length) return { inputs: news, failures: said.failures };
        // Told once per host, not once per resource.
        if (said.note && host.told.first(said.note)) scope.note(said.note);
      }
      return { inputs, failures: [] };
    },
    async diff({ id, olds, news }) {
      const d = diffOf(def, olds, news, id);
      // A create not settled yet is always a change, and no replacement (which would make another
      // object beside the one it may have made): its update sends nothing and says what settles it.
      // Except when the program adopts an object by its id: that replacement makes nothing, and the
      // delete after it settles the old one (a number the program declares is never cancelled).
      if (isUnsettled(id)) {
        const adopting = def.adopt !== undefined && news[def.adopt] !== undefined && news[def.adopt] !== "";
        const replaces: string[] = adopting && def.adopt ? [def.adopt] : [];
        return {
          detailed: {
            ...Object.fromEntries(d.changed.map((p) => [p, diffKind(olds[p], news[p], replaces.includes(p))])),
            [UNSETTLED_OUTPUT]: diffKind(olds[UNSETTLED_OUTPUT], undefined, false),
          },
          replaces,
          deleteBeforeReplace: false,
        };
      }
      const replaces = new Set(d.replaces);
      return {
        detailed: Object.fromEntries(d.changed.map((p) => [p, diffKind(olds[p], news[p], replaces.has(p))])),
        replaces: d.replaces,
        deleteBeforeReplace: d.replaces.length > 0 && def.deleteBeforeReplace === true,
      };
    },
    async create(req) {
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
    },
    async read(req) {
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
    },
    async update(req) {
      const { id, olds } = req;
      refreshOver(req);
      if (isUnsettled(id)) throw unsettledRefusal(def, id);
      const inputs = parse(req.news);
      const where = at(req);
      // A kind that cannot change in place is updated only when the engine finishes a partial
      // create: read the object back, so its recorded outputs become what the service holds.
      if (!def.update) return { outputs: await readBack(where, id, inputs, olds) };
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
        const converged = await tookEffect(where, id, inputs, err);
        if (converged) return { outputs: converged };
        throw fail("update", err, where.client);
      }
    },
    unsent({ olds, news }) {
      return { outputs: withLocalInputs(def, olds, parse(news)) };
    },
    previewUpdate({ olds, oldInputs, news }) {
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
    },
    async delete(req) {
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
    },
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
