import { diffResponse } from "./detailed-diff.js";
import { withIgnored } from "./ignore-changes.js";
import { invoke } from "./invoke.js";
import type { KindDispatch } from "./kinds.js";
import { previewOutputs, type SchemaOutputs } from "./schema-outputs.js";
import type { Load, ScopedProvider } from "./scoped-protocol.js";

/** What the innermost provider is given: how to load the kinds, the plugin's version, the SDK's, and the schema's outputs. */
export interface DispatchOptions {
  load: Load;
  version: string;
  /** The version of the SDK that registered the resources, when the engine says (plugin/config.ts `requestedVersion`). */
  requested: () => string | undefined;
  /** Each type's outputs as the schema types them (plugin/schema-outputs.ts). */
  schemaOf: (type: string) => SchemaOutputs;
}

/**
 * The innermost provider: each request answered by the runtime of its kind (kit/runtime.ts), found
 * by its type token (plugin/kinds.ts), with the outputs the schema says are secret. What the
 * wrappers around it (plugin/plain-provider.ts) take care of, it never sees: protobuf, the dynamic
 * provider a migrated stack records, which requests only preview, failures as the engine reads them.
 */
export function dispatched({ load, version, requested, schemaOf }: DispatchOptions): ScopedProvider {
  const kindOf = async (type: string, urn: string): Promise<KindDispatch> =>
    (await load()).kindFor(type, urn, version, requested());
  const runtimeOf = async (type: string, urn: string) => (await kindOf(type, urn)).orThrow();
  return {
    async check(scope, req) {
      const kind = await kindOf(req.type, req.urn);
      if (!kind.runtime) return { failures: [{ property: "", reason: kind.problem }] };
      const result = await kind.runtime.check({
        scope,
        olds: req.olds,
        news: req.news,
        autonaming: { logicalName: req.name || nameOfUrn(req.urn), ...req.autonaming },
      });
      return {
        inputs: result.inputs,
        failures: result.failures.map((f) => ({ property: f.property, reason: kind.explainUnknown(f.reason) })),
      };
    },
    async diff(scope, req) {
      const rt = await runtimeOf(req.type, req.urn);
      const news = withIgnored(req.ignoreChanges ?? [], req.olds, req.news);
      return diffResponse(await rt.diff({ scope, id: req.id, olds: req.olds, news }), req.news);
    },
    async create(scope, req) {
      const made = await (await runtimeOf(req.type, req.urn)).create({ scope, properties: req.properties });
      return { id: made.id, properties: made.outputs, secrets: schemaOf(req.type).secrets };
    },
    async previewCreate(_scope, req) {
      await runtimeOf(req.type, req.urn);
      const { decided, secrets } = schemaOf(req.type);
      // The inputs, and what the service decides as unknown.
      return { id: "", properties: previewOutputs(req.properties, decided), secrets };
    },
    async read(scope, req) {
      const rt = await runtimeOf(req.type, req.urn);
      const got = await rt.read({ scope, id: req.id, properties: req.properties });
      if (got.gone) return { id: "" };
      if (Object.keys(req.properties).length === 0 && !got.inputs) {
        // An import, and the kit kept what was recorded (nothing): this server cannot read the kind.
        const { Refusal } = await load();
        throw new Refusal(
          "E_NOT_IMPORTABLE",
          `${req.type} ${req.id} cannot be imported: this service has no route to read it, so nothing was imported or changed. ` +
            "Declare it in the program with its adopting input (agentId, voiceId...) instead",
        );
      }
      // `pulumi import` reads with no properties and needs inputs back, or it says the provider cannot import.
      return {
        id: got.id,
        properties: got.outputs,
        inputs: got.inputs ?? req.inputs,
        secrets: schemaOf(req.type).secrets,
      };
    },
    async update(scope, req) {
      const rt = await runtimeOf(req.type, req.urn);
      const made = await rt.update({ scope, id: req.id, olds: req.olds, news: req.news });
      return { properties: made.outputs, secrets: schemaOf(req.type).secrets };
    },
    async previewUpdate(_scope, req) {
      const rt = await runtimeOf(req.type, req.urn);
      const properties = rt.previewUpdate({ olds: req.olds, oldInputs: req.oldInputs, news: req.news });
      return { properties, secrets: schemaOf(req.type).secrets };
    },
    async delete(scope, req) {
      await (await runtimeOf(req.type, req.urn)).delete({ scope, id: req.id, properties: req.properties });
    },
    invoke: (scope, req) => invoke({ scope }, req, version),
  };
}

/** The logical name of a URN (`urn:pulumi:stack::project::parent$type::name`; a name may hold "::"). */
const nameOfUrn = (urn: string): string => urn.split("::").slice(3).join("::");
