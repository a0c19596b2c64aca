import { providerDeletion, recordsProvider, withoutProvider } from "../dynamic/migration.js";
import type { Props } from "../resources/kit/kind.js";
import type { DiffResponse } from "./protocol.js";
import type { SchemaOutputs } from "./schema-outputs.js";
import type { Middleware } from "./scoped-protocol.js";

/**
 * A stack moved from the dynamic provider (dynamic/migration.ts): the provider it records is
 * removed from every property map before the provider within sees it, shown as a deletion in a
 * diff, and an update whose only difference it is drops it and sends nothing.
 */
export const fromDynamic =
  (schemaOf: (type: string) => SchemaOutputs): Middleware =>
  (inner) => ({
    ...inner,
    check: (scope, req) =>
      inner.check(scope, { ...req, olds: withoutProvider(req.olds), news: withoutProvider(req.news) }),
    async diff(scope, req) {
      const d = await inner.diff(scope, { ...req, olds: withoutProvider(req.olds), news: withoutProvider(req.news) });
      return withDeletion(d, req.olds, req.oldInputs ?? {});
    },
    create: (scope, req) => inner.create(scope, { ...req, properties: withoutProvider(req.properties) }),
    previewCreate: (scope, req) => inner.previewCreate(scope, { ...req, properties: withoutProvider(req.properties) }),
    async read(scope, req) {
      const got = await inner.read(scope, {
        ...req,
        properties: withoutProvider(req.properties),
        inputs: withoutProvider(req.inputs),
      });
      if (got.properties === undefined || got.inputs === undefined) return got;
      return { ...got, properties: withoutProvider(got.properties), inputs: withoutProvider(got.inputs) };
    },
    async update(scope, req) {
      const update = { ...req, olds: withoutProvider(req.olds), news: withoutProvider(req.news) };
      // Only the dynamic provider a migrated stack records differs: drop it, send nothing.
      if (recordsProvider(req.olds)) {
        const { detailed } = await inner.diff(scope, { ...update, oldInputs: undefined, ignoreChanges: [] });
        if (Object.keys(detailed).length === 0) return { properties: update.olds, secrets: schemaOf(req.type).secrets };
      }
      return inner.update(scope, { ...update, oldInputs: withoutProvider(req.oldInputs) });
    },
    previewUpdate: (scope, req) =>
      inner.previewUpdate(scope, {
        ...req,
        olds: withoutProvider(req.olds),
        oldInputs: withoutProvider(req.oldInputs),
        news: withoutProvider(req.news),
      }),
    delete: (scope, req) => inner.delete(scope, { ...req, properties: withoutProvider(req.properties) }),
  });

/**
 * The dynamic provider a migrated stack still records, as a deletion that never replaces: otherwise
 * the resource would be a Same step, which copies the old outputs, and the serialized provider
 * would stay in the state forever (dynamic/migration.ts `providerDeletion`).
 */
function withDeletion(d: DiffResponse, olds: Props, oldInputs: Props): DiffResponse {
  const deleted = Object.entries(providerDeletion(olds, oldInputs));
  if (deleted.length === 0) return d;
  const detailed = { ...d.detailed };
  for (const [key, kind] of deleted) detailed[key] = { kind, inputDiff: false };
  return { ...d, changes: true, detailed };
}
