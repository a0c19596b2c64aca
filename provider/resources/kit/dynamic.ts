import type * as pulumi from "@pulumi/pulumi";
import type { Host } from "../../host.js";
import { logicalNameOf } from "./autoname.js";
import { shownOnEngine } from "./dynamic-host.js";
import { PartialCreateError } from "./errors.js";
import type { Props } from "./kind.js";
import { providerMoved, withoutProvider, withProviderOf } from "./migration.js";
import type { KindRuntime } from "./runtime.js";
import type { ProviderSettings } from "./settings.js";

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

/** The engine's diff, plus the properties that differ. */
export type DynamicDiff = pulumi.dynamic.DiffResult & { changed: string[] };

/**
 * A kind's plain runtime as the dynamic provider calls it, each call a request in `host`. The
 * dynamic host records the serialized provider among the inputs and outputs: it is removed before
 * the runtime sees them, kept in what check returns, and a move between the dynamic and the native
 * provider is a change whose update sends nothing (kit/migration.ts). A dynamic provider's check
 * is not told which resource it checks: no `urn` (the program checks bound-once inputs itself).
 */
export function dynamicRuntime(rt: KindRuntime, host: Host): DynamicRuntime {
  return {
    async check(settings, olds, news) {
      // The logical name the class hands over (kit/autoname.ts), for the default name; the engine
      // sends this provider no autonaming configuration (the dynamic host does not handshake).
      const { props, logicalName } = logicalNameOf(withoutProvider(news));
      const r = await rt.check({
        host,
        settings,
        olds: logicalNameOf(withoutProvider(olds)).props,
        news: props,
        autonaming: logicalName === undefined ? undefined : { logicalName },
      });
      if (r.failures.length) return { inputs: logicalNameOf(news).props, failures: r.failures };
      return { inputs: withProviderOf(r.inputs, news) };
    },
    async diff(settings, id, olds, news) {
      const d = await rt.diff({ host, settings, id, olds: withoutProvider(olds), news: withoutProvider(news) });
      const changed = Object.keys(d.detailed);
      return {
        changes: changed.length > 0 || providerMoved(olds, news),
        changed,
        replaces: d.replaces,
        ...(d.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
      };
    },
    async create(settings, inputs) {
      try {
        const made = await rt.create({ host, settings, properties: withoutProvider(inputs) });
        return { id: made.id, outs: made.outputs };
      } catch (err) {
        // A partial state must carry the serialized provider like any other, or the next up takes
        // its absence for a move from the native provider and records the program's inputs without
        // asking the service (update above).
        if (err instanceof PartialCreateError)
          throw await shownOnEngine(err.withProperties(withProviderOf(err.properties, inputs)));
        throw err;
      }
    },
    async read(settings, id, props) {
      const got = await rt.read({ host, settings, id, properties: withoutProvider(props) });
      if (got.gone) return { id: "", props: {} };
      // Nothing could be read: what was recorded stands, as it was recorded.
      if (!got.inputs) return { id, props };
      return { id: got.id, props: got.outputs, inputs: got.inputs };
    },
    async update(settings, id, olds, news) {
      const req = { host, settings, id, olds: withoutProvider(olds), news: withoutProvider(news) };
      // Compared without the object's id, as this path always has (an adopting input then counts as a change).
      if (providerMoved(olds, news) && Object.keys((await rt.diff({ ...req, id: "" })).detailed).length === 0) {
        return { outs: rt.unsent(req).outputs };
      }
      return { outs: (await rt.update(req)).outputs };
    },
    async delete(settings, id, props) {
      await rt.delete({ host, settings, id, properties: withoutProvider(props) });
    },
  };
}

/**
 * The same runtime, each call run in `host` (the dynamic provider host's, or a test's own), so the
 * errors made below it are redacted with the host's secrets (client/stores.ts).
 */
export function inHost(rt: DynamicRuntime, host: Host): DynamicRuntime {
  return {
    check: (...a) => host.run(() => rt.check(...a)),
    diff: (...a) => host.run(() => rt.diff(...a)),
    create: (...a) => host.run(() => rt.create(...a)),
    read: (...a) => host.run(() => rt.read(...a)),
    update: (...a) => host.run(() => rt.update(...a)),
    delete: (...a) => host.run(() => rt.delete(...a)),
  };
}
