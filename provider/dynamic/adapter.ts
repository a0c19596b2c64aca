import type * as pulumi from "@pulumi/pulumi";
import type { Host } from "../host.js";
import { Configuration } from "../resources/kit/configuration.js";
import { logicalNameOf } from "../resources/kit/autoname.js";
import { shownOnEngine } from "./dynamic-host.js";
import { PartialCreateError } from "../resources/kit/errors.js";
import type { Props } from "../resources/kit/kind.js";
import { providerMoved, withoutProvider, withProviderOf } from "./migration.js";
import type { KindRuntime } from "../resources/kit/runtime.js";
import { RequestScope } from "../resources/kit/scope.js";
import type { ProviderSettings } from "../resources/kit/settings.js";

/**
 * The methods of one kind as the serialized shims call them: `runtimeFor(kind)[method](settings,
 * ...args)`, answering `pulumi.dynamic` results. This is a stable contract: every shim ever
 * written into a stack's state (0.1.0's included) calls it, and must keep working after an upgrade.
 * So it stays positional, `pulumi.dynamic.ResourceProvider`'s arguments after the settings: the
 * dynamic provider's edge, as protobuf is the plugin's. {@link dynamicRuntime} turns each call
 * into the kit's request objects (kit/requests.ts) at once.
 */
export interface DynamicRuntime {
  check(settings: ProviderSettings | undefined, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(settings: ProviderSettings | undefined, id: string, olds: Props, news: Props): Promise<DynamicDiff>;
  create(settings: ProviderSettings | undefined, inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(settings: ProviderSettings | undefined, id: string, props: Props): Promise<pulumi.dynamic.ReadResult>;
  update(
    settings: ProviderSettings | undefined,
    id: string,
    olds: Props,
    news: Props,
  ): Promise<pulumi.dynamic.UpdateResult>;
  delete(settings: ProviderSettings | undefined, id: string, props: Props): Promise<void>;
}

/** The same methods once configured: `pulumi.dynamic.ResourceProvider`'s arguments, the settings resolved at configure. */
export type ConfiguredRuntime = {
  [M in keyof DynamicRuntime]: DynamicRuntime[M] extends (settings: never, ...args: infer A) => infer R
    ? (...args: A) => R
    : never;
};

/** The engine's diff, plus the properties that differ. */
export type DynamicDiff = pulumi.dynamic.DiffResult & { changed: string[] };

/**
 * A kind's plain runtime as the dynamic provider calls it once configured (`dispatchFor`, after the
 * shim's `configure`), each call a request in its own scope of `configuration`. The dynamic host
 * records the serialized provider among the inputs and outputs: it is removed before the runtime
 * sees them, kept in what check returns, and a move between the dynamic and the native provider is
 * a change whose update sends nothing (dynamic/migration.ts). A dynamic provider's check is not told
 * which resource it checks: no URN (the program checks bound-once inputs itself).
 */
export function configuredRuntime(rt: KindRuntime, configuration: Configuration): ConfiguredRuntime {
  /** Runs one call in a scope of its own (its notes, the host's stores for the client's errors). */
  const scoped = <T>(work: (scope: RequestScope) => Promise<T>): Promise<T> => {
    const scope = new RequestScope(configuration);
    return scope.run(() => work(scope));
  };
  return {
    check: (olds, news) =>
      scoped(async (scope) => {
        // The logical name the class hands over (kit/autoname.ts), for the default name; the engine
        // sends this provider no autonaming configuration (the dynamic host does not handshake).
        const { props, logicalName } = logicalNameOf(withoutProvider(news));
        const r = await rt.check({
          scope,
          olds: logicalNameOf(withoutProvider(olds)).props,
          news: props,
          autonaming: logicalName === undefined ? undefined : { logicalName },
        });
        if (r.failures.length) return { inputs: logicalNameOf(news).props, failures: r.failures };
        return { inputs: withProviderOf(r.inputs, news) };
      }),
    diff: (id, olds, news) =>
      scoped(async (scope) => {
        const d = await rt.diff({ scope, id, olds: withoutProvider(olds), news: withoutProvider(news) });
        const changed = Object.keys(d.detailed);
        return {
          changes: changed.length > 0 || providerMoved(olds, news),
          changed,
          replaces: d.replaces,
          ...(d.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
        };
      }),
    create: (inputs) =>
      scoped(async (scope) => {
        try {
          const made = await rt.create({ scope, properties: withoutProvider(inputs) });
          return { id: made.id, outs: made.outputs };
        } catch (err) {
          // A partial state must carry the serialized provider like any other, or the next up takes
          // its absence for a move from the native provider and records the program's inputs without
          // asking the service (update below).
          if (err instanceof PartialCreateError)
            throw await shownOnEngine(err.withProperties(withProviderOf(err.properties, inputs)));
          throw err;
        }
      }),
    read: (id, props) =>
      scoped(async (scope) => {
        const got = await rt.read({ scope, id, properties: withoutProvider(props) });
        if (got.gone) return { id: "", props: {} };
        // Nothing could be read: what was recorded stands, as it was recorded.
        if (!got.inputs) return { id, props };
        return { id: got.id, props: got.outputs, inputs: got.inputs };
      }),
    update: (id, olds, news) =>
      scoped(async (scope) => {
        const req = { scope, id, olds: withoutProvider(olds), news: withoutProvider(news) };
        // Compared without the object's id, as this path always has (an adopting input then counts as a change).
        if (providerMoved(olds, news) && Object.keys((await rt.diff({ ...req, id: "" })).detailed).length === 0) {
          return { outs: rt.unsent(req).outputs };
        }
        return { outs: (await rt.update(req)).outputs };
      }),
    delete: (id, props) =>
      scoped(async (scope) => {
        await rt.delete({ scope, id, properties: withoutProvider(props) });
      }),
  };
}

/**
 * The positional contract every shim of 0.1.0–0.4.0 calls (`runtimeFor(kind)[method](settings,
 * ...args)`): those shims hand their settings with each call, so each call configures anew in
 * `host` (resolving is a function of the settings' text; the client is the host's one for them).
 */
export function dynamicRuntime(rt: KindRuntime, host: Host): DynamicRuntime {
  const configured = (settings: ProviderSettings | undefined) =>
    configuredRuntime(rt, new Configuration(host, settings));
  return {
    check: (settings, ...a) => configured(settings).check(...a),
    diff: (settings, ...a) => configured(settings).diff(...a),
    create: (settings, ...a) => configured(settings).create(...a),
    read: (settings, ...a) => configured(settings).read(...a),
    update: (settings, ...a) => configured(settings).update(...a),
    delete: (settings, ...a) => configured(settings).delete(...a),
  };
}
