import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { ApiError, ApiSchemaError, type VoiceAgentClient } from "../../client/index.js";
import { checkInputs } from "./check.js";
import { bodiesOf, diffOf, inputsOf, notKept, outputsOf, partialInputs, propertyNames, withLocalInputs } from "./derive.js";
import { explain, isGone, PartialCreateError, unreadableCreate, type FailureContext } from "./errors.js";
import type { KindDef, Props } from "./kind.js";
import { note } from "./notes.js";
import { clientFor, resolveSettings, type ProviderSettings } from "./settings.js";

/**
 * The provider methods of one kind, as the serialized shim calls them: settings first, always.
 * This is a stable contract: every shim ever written into a stack's state (0.1.0's included) calls
 * `runtimeFor(kind)[method](settings, ...args)`, and must keep working after an upgrade.
 */
export interface KindRuntime {
  check(settings: ProviderSettings | undefined, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(settings: ProviderSettings | undefined, id: string, olds: Props, news: Props): Promise<KindDiff>;
  create(settings: ProviderSettings | undefined, inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(settings: ProviderSettings | undefined, id: string, props: Props): Promise<pulumi.dynamic.ReadResult>;
  update(settings: ProviderSettings | undefined, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(settings: ProviderSettings | undefined, id: string, props: Props): Promise<void>;
}

/** The engine's diff, plus the properties that differ (a native provider's detailed diff). */
export type KindDiff = pulumi.dynamic.DiffResult & { changed: string[] };

const withoutProvider = (p: Props): Props => {
  const { __provider: _ignored, ...rest } = p;
  return rest;
};

/**
 * A stack moving between the dynamic and the native provider (aliases): the recorded `__provider`
 * is there on one side only. That alone is a change, or the engine would keep the old outputs
 * (with or without it) forever; its update sends nothing to the service.
 */
const providerMoved = (olds: Props, news: Props): boolean => (olds.__provider === undefined) !== (news.__provider === undefined);

/** Generation notes already told in this process (each once, not once per resource). */
const noted = new Set<string>();

/** Wraps a kind's declaration with what every kind does alike. */
export function kindRuntime<S extends z.ZodRawShape, R extends { id: string }, W>(def: KindDef<S, R, W>): KindRuntime {
  type I = z.output<z.ZodObject<S>>;
  const names = propertyNames(def);
  const fail = (op: FailureContext["op"], err: unknown) =>
    err instanceof PartialCreateError ? err : explain({ kind: def.kind, op, names, ...(def.adopt ? { adopt: def.adopt } : {}) }, err);
  const parse = (props: Props): I => def.input.parse(withoutProvider(props));
  /** Recorded state, read leniently: a property an older release stored differently is left out. */
  const recorded = (props: Props): Partial<I> => partialInputs(def, withoutProvider(props));
  const outs = (live: R, inputs: Props) => outputsOf(def, live, inputs);

  /** After a write whose answer was lost, the live object tells whether it took effect. */
  async function settled(client: VoiceAgentClient, id: string, inputs: I, err: unknown): Promise<Props | undefined> {
    if (!(err instanceof ApiError) || !err.mayHaveActed || !def.read) return undefined;
    const live = await def.read(client, id, inputs).catch(() => undefined);
    if (!live) return undefined;
    const o = outs(live, inputs);
    return notKept(def, o, inputs).length === 0 ? o : undefined;
  }

  /** The live object as outputs, for a kind that cannot change in place (see update). */
  async function readBack(client: VoiceAgentClient, id: string, inputs: I, state: Props): Promise<Props> {
    const routes = !def.readRoutes || (await client.capabilities.has(def.readRoutes));
    let live: R | undefined;
    try {
      live = routes && def.read ? await def.read(client, id, { ...inputs, ...recorded(state) }) : undefined;
    } catch (err) {
      throw fail("read", err);
    }
    if (!live) {
      if (!routes || !def.read) return withLocalInputs(def, state, inputs);
      throw new Error(`voiceagent:${def.kind} ${id} is no longer on the service, and nothing was sent: run \`pulumi refresh\` to drop it from the state, then \`pulumi up\``);
    }
    const o = outs(live, inputs);
    const differs = diffOf(def, o, inputs, id).changed;
    if (differs.length) {
      // Recorded as the service holds it, so the next preview shows the replacement it would take.
      throw new PartialCreateError(
        `voiceagent:${def.kind} ${id} holds other values of ${differs.join(", ")} than the program, and cannot change in place. ` +
          "Nothing was sent; its live values are now recorded. Change the program to match them, or see with `pulumi preview` the replacement the next `pulumi up` would make.",
        id,
        o,
        differs.map((f) => `${f} differs`),
      );
    }
    return o;
  }

  /** Create as the engine sees it; runtime.create completes a PartialCreateError it throws. */
  async function create(settings: ProviderSettings | undefined, props: Props): Promise<pulumi.dynamic.CreateResult> {
    const inputs = parse(props);
    let live: R;
    try {
      live = await def.create(clientFor(settings), inputs, bodiesOf(def, inputs));
    } catch (err) {
      // The service answered with the object's id but the rest could not be read: it exists.
      // Losing the id would leave it untracked and the next up would make another (a bought
      // number would go on costing money), so the engine keeps it as a partial create.
      if (err instanceof ApiSchemaError && err.receivedId) throw unreadableCreate(def.kind, err.receivedId, err.summary, inputs);
      throw fail("create", err);
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
    return { id: live.id, outs: o };
  }

  return {
    async check(settings, olds, news) {
      const { problems, resolved } = resolveSettings(settings);
      const { inputs, known, failures } = checkInputs(def.input, withoutProvider(news));
      const all = [...problems, ...failures];
      if (all.length === 0 && def.refine) all.push(...def.refine(partialInputs(def, known)));
      if (all.length) return { inputs: news, failures: all };
      def.declared?.(partialInputs(def, known));
      if (resolved && def.generationCheck) {
        // "auto" knows its generation only once something was read in this process (a refresh).
        const gen = resolved.api === "auto" ? clientFor(settings).generation.known() : resolved.api;
        const said = gen ? def.generationCheck(gen, recorded(olds), partialInputs(def, known)) : {};
        if (said.failures?.length) return { inputs: news, failures: said.failures };
        if (said.note && !noted.has(said.note)) {
          noted.add(said.note);
          note(said.note);
        }
      }
      return { inputs: { ...inputs, __provider: news.__provider } };
    },
    async diff(_settings, id, olds, news) {
      const d = diffOf(def, withoutProvider(olds), withoutProvider(news), id);
      return {
        changes: d.changed.length > 0 || providerMoved(olds, news),
        changed: d.changed,
        replaces: d.replaces,
        ...(d.replaces.length && def.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
      };
    },
    async create(settings, props) {
      try {
        return await create(settings, props);
      } catch (err) {
        // The partial state must carry the serialized provider like any other, or the next up
        // takes its absence for a move between the dynamic and native providers and records the
        // program's inputs without asking the service (providerMoved above).
        if (err instanceof PartialCreateError && props.__provider !== undefined) {
          throw new PartialCreateError(err.message, err.id, { ...err.properties, __provider: props.__provider }, err.reasons);
        }
        throw err;
      }
    },
    async read(settings, id, props) {
      const client = clientFor(settings);
      const state = withoutProvider(props);
      // A server without this kind's read route cannot be asked: keep what was recorded.
      if (!def.read || (def.readRoutes && !(await client.capabilities.has(def.readRoutes)))) return { id, props };
      try {
        const live = await def.read(client, id, recorded(state));
        if (!live) return { id: "", props: {} };
        const o = outs(live, state);
        return { id, props: o, inputs: inputsOf(def, o) };
      } catch (err) {
        if (isGone(err)) return { id: "", props: {} };
        throw fail("read", err);
      }
    },
    async update(settings, id, olds, news) {
      const inputs = parse(news);
      if (providerMoved(olds, news) && diffOf(def, withoutProvider(olds), withoutProvider(news)).changed.length === 0) {
        return { outs: withLocalInputs(def, withoutProvider(olds), inputs) };
      }
      const client = clientFor(settings);
      const state = withoutProvider(olds);
      // A kind that cannot change in place is updated only when the engine finishes a partial
      // create: read the object back, so its recorded outputs become what the service holds.
      if (!def.update) return { outs: await readBack(client, id, inputs, state) };
      try {
        const live = await def.update(client, id, inputs, recorded(state), bodiesOf(def, inputs), state);
        return { outs: live ? outs(live, inputs) : withLocalInputs(def, state, inputs) };
      } catch (err) {
        const converged = await settled(client, id, inputs, err);
        if (converged) return { outs: converged };
        throw fail("update", err);
      }
    },
    async delete(settings, id, props) {
      if (!def.delete) {
        if (def.forgetNote) note(`voiceagent:${def.kind} ${id}: ${def.forgetNote}`);
        return;
      }
      try {
        await def.delete(clientFor(settings), id, recorded(props));
      } catch (err) {
        if (isGone(err)) return;
        throw fail("delete", err);
      }
    },
  };
}
