import type * as pulumi from "@pulumi/pulumi";
import { checkInputs } from "./check.js";
import { clientFor, type ProviderSettings } from "./credentials.js";
import { diffFields } from "./diff.js";
import { explain, isGone, isRouteMissing, PartialCreateError } from "./errors.js";
import type { Props, ResourceSpec } from "./spec.js";

/** The provider methods of one kind, as the serialized shim calls them: settings first, always. */
export interface KindRuntime {
  check(settings: ProviderSettings | undefined, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(settings: ProviderSettings | undefined, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(settings: ProviderSettings | undefined, inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(settings: ProviderSettings | undefined, id: string, props: Props): Promise<pulumi.dynamic.ReadResult>;
  update(settings: ProviderSettings | undefined, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(settings: ProviderSettings | undefined, id: string, props: Props): Promise<void>;
}

const withoutProvider = (p: Props): Props => {
  const { __provider: _ignored, ...rest } = p;
  return rest;
};

/** Wraps a spec with what every kind does alike. */
export function kindRuntime(spec: ResourceSpec): KindRuntime {
  const fail = (op: string, err: unknown) => (err instanceof PartialCreateError ? err : explain(spec.kind, op, err, spec.fields));
  return {
    async check(_settings, _olds, news) {
      const { inputs, failures } = checkInputs(spec.shape, withoutProvider(news), spec.refine);
      return failures.length ? { inputs: news, failures } : { inputs: { ...inputs, __provider: news.__provider } };
    },
    async diff(_settings, _id, olds, news) {
      const d = diffFields(spec.diff, withoutProvider(olds), withoutProvider(news));
      if (d.replaces.length) spec.onReplace?.(olds);
      return {
        changes: d.changes,
        replaces: d.replaces,
        ...(d.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
      };
    },
    async create(settings, inputs) {
      try {
        return await spec.create(clientFor(settings), withoutProvider(inputs));
      } catch (err) {
        throw fail("create", err);
      }
    },
    async read(settings, id, props) {
      if (!spec.read) return { id, props };
      try {
        const found = await spec.read(clientFor(settings), id, withoutProvider(props));
        return found ? { id, props: found.props, inputs: found.inputs } : { id: "", props: {} };
      } catch (err) {
        if (isRouteMissing(err)) return { id, props };
        if (isGone(err)) return { id: "", props: {} };
        throw fail("read", err);
      }
    },
    async update(settings, id, olds, news) {
      try {
        return { outs: await spec.update(clientFor(settings), id, withoutProvider(olds), withoutProvider(news)) };
      } catch (err) {
        throw fail("update", err);
      }
    },
    async delete(settings, id, props) {
      if (!spec.delete) {
        if (spec.forgetNote) process.stderr.write(`voiceagent:${spec.kind} ${id}: ${spec.forgetNote}\n`);
        return;
      }
      try {
        await spec.delete(clientFor(settings), id, withoutProvider(props));
      } catch (err) {
        if (isGone(err)) return;
        throw fail("delete", err);
      }
    },
  };
}
