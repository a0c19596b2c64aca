import type { Host } from "../host.js";
import type { Props } from "../resources/kit/kind.js";
import { recordsProvider, withoutProvider } from "../resources/kit/migration.js";
import type { Configuration } from "../resources/kit/configuration.js";
import type { RequestScope } from "../resources/kit/scope.js";
import { persistCompileCache } from "./compile-cache.js";
import { configDiff, diffResponse } from "./detailed-diff.js";
import { withIgnored } from "./ignore-changes.js";
import { invoke } from "./invoke.js";
import type { KindDispatch } from "./kinds.js";
import { ProviderFailure, type PlainProvider } from "./protocol.js";
import { previewOutputs, schemaOutputs, type SchemaOutputs } from "./schema-outputs.js";

type Lazy = typeof import("./lazy.js");

/** What the provider is built from: the plugin's version and the package schema. */
export interface PlainProviderOptions {
  version: string;
  schema: string;
}

/** The resource's customTimeouts for this request (the engine's `timeout`, in seconds) as a budget in ms; unset when none was given. */
const budgetOf = (timeout: number | undefined): number | undefined =>
  timeout && timeout > 0 ? Math.ceil(timeout * 1000) : undefined;

/**
 * The native provider for every kind, through the kinds' runtimes only (kit/runtime.ts): the same
 * checks, diffs, exactly-once creates, claims and messages as the dynamic path. On top of them it
 * dispatches by type token, answers previews without a request, drops the dynamic provider a
 * migrated stack records (kit/migration.ts), and refuses an import the service cannot read.
 */
export function plainProvider(opts: PlainProviderOptions, host: Host): PlainProvider {
  let loaded: Promise<Lazy> | undefined;
  /** What the plugin loads on first use, once (see lazy.ts). */
  const lazy = (): Promise<Lazy> =>
    (loaded ??= import("./lazy.js").then((k) => {
      persistCompileCache();
      return k;
    }));
  /** The settings resolved at Configure (before it: the environment's alone, resolved at the first request). */
  let configuration: Configuration | undefined;
  /** One request's scope: this provider's configuration, the request's URN and its customTimeouts (kit/scope.ts). */
  const scopeOf = async (urn: string, timeout?: number): Promise<RequestScope> => {
    const { Configuration, RequestScope } = await lazy();
    configuration ??= new Configuration(host, undefined);
    return new RequestScope(configuration, { urn, budgetMs: budgetOf(timeout) });
  };
  /**
   * Runs one request in its scope (or, for the provider's own config, this provider's host),
   * failing only with a {@link ProviderFailure} (`inputs`: those of a request that may make an
   * object; `secrets`: the outputs a partial create must keep secret).
   */
  const failing = <T>(
    work: (scope: RequestScope) => Promise<T>,
    at: { urn: string; timeout?: number | undefined },
    inputs?: Props,
    secrets?: readonly string[],
  ): Promise<T> =>
    host.run(async () => {
      try {
        const scope = await scopeOf(at.urn, at.timeout);
        return await scope.run(() => work(scope));
      } catch (err) {
        if (err instanceof ProviderFailure) throw err;
        throw (await lazy()).failureOf(err, inputs, secrets);
      }
    });
  let requested: string | undefined;
  const outputs = schemaOutputs(opts.schema);
  const none: SchemaOutputs = { decided: [], secrets: [] };
  const schemaOf = (type: string): SchemaOutputs => outputs.get(type) ?? none;
  const dispatch = async (type: string, urn: string): Promise<KindDispatch> =>
    (await lazy()).kindFor(type, urn, opts.version, requested);

  return {
    getPluginInfo: () => ({ version: opts.version }),
    getSchema: () => opts.schema,

    checkConfig: (req) =>
      failing(async () => {
        const { configFailures, requestedVersion } = await lazy();
        requested = requestedVersion(req.news) ?? requested;
        return { inputs: req.news, failures: configFailures(req.news) };
      }, req),
    diffConfig: (req) =>
      failing(async () => {
        const olds = req.oldInputs ?? req.olds;
        return configDiff(olds, req.news, (await lazy()).changedSettings(olds, req.news));
      }, req),
    configure: (req) =>
      failing(
        async () => {
          const { requestedVersion, settingsOf, PLAIN_TOKEN, containsUnknown, Refusal, Configuration } = await lazy();
          // Only here does the engine show whether the token was a secret: a plain one would be
          // recorded unencrypted among the provider's inputs in the state, so it is refused before
          // anything is sent (the dynamic path refuses it in the program).
          const token = req.config.token;
          if (req.plainKeys?.includes("token") && typeof token === "string" && !containsUnknown(token))
            throw new Refusal("E_PLAIN_TOKEN", `${PLAIN_TOKEN}; nothing was sent to the service`);
          requested = requestedVersion(req.config) ?? requested;
          // Resolved once, here: every request of this provider instance is handed this configuration.
          configuration = new Configuration(host, settingsOf(req.config));
        },
        { urn: "" },
      ),

    check: (req) =>
      failing(async (scope) => {
        const kind = await dispatch(req.type, req.urn);
        if (!kind.runtime) return { failures: [{ property: "", reason: kind.problem }] };
        const result = await kind.runtime.check({
          scope,
          olds: withoutProvider(req.olds),
          news: withoutProvider(req.news),
          autonaming: { logicalName: req.name || nameOfUrn(req.urn), ...req.autonaming },
        });
        return {
          inputs: result.inputs,
          failures: result.failures.map((f) => ({ property: f.property, reason: kind.explainUnknown(f.reason) })),
        };
      }, req),
    diff: (req) =>
      failing(async (scope) => {
        const rt = (await dispatch(req.type, req.urn)).orThrow();
        const olds = withoutProvider(req.olds);
        const d = await rt.diff({
          scope,
          id: req.id,
          olds,
          news: withIgnored(req.ignoreChanges ?? [], olds, withoutProvider(req.news)),
        });
        return diffResponse(d, req.olds, req.oldInputs ?? {}, req.news);
      }, req),
    create: (req) =>
      failing(
        async (scope) => {
          const rt = (await dispatch(req.type, req.urn)).orThrow();
          const inputs = withoutProvider(req.properties);
          const { decided, secrets } = schemaOf(req.type);
          // A preview sends nothing: the inputs, and what the service decides as unknown.
          if (req.preview) return { id: "", properties: previewOutputs(inputs, decided), secrets };
          const made = await rt.create({ scope, properties: inputs });
          return { id: made.id, properties: made.outputs, secrets };
        },
        req,
        req.properties,
        schemaOf(req.type).secrets,
      ),
    read: (req) =>
      failing(async (scope) => {
        const rt = (await dispatch(req.type, req.urn)).orThrow();
        const recorded = withoutProvider(req.properties);
        const got = await rt.read({ scope, id: req.id, properties: recorded });
        if (got.gone) return { id: "" };
        if (Object.keys(recorded).length === 0 && !got.inputs) {
          // An import, and the kit kept what was recorded (nothing): this server cannot read the kind.
          const { Refusal } = await lazy();
          throw new Refusal(
            "E_NOT_IMPORTABLE",
            `${req.type} ${req.id} cannot be imported: this service has no route to read it, so nothing was imported or changed. ` +
              "Declare it in the program with its adopting input (agentId, voiceId...) instead",
          );
        }
        // `pulumi import` reads with no properties and needs inputs back, or it says the provider cannot import.
        return {
          id: got.id,
          properties: withoutProvider(got.outputs),
          inputs: withoutProvider(got.inputs ?? req.inputs),
          secrets: schemaOf(req.type).secrets,
        };
      }, req),
    update: (req) =>
      failing(
        async (scope) => {
          const rt = (await dispatch(req.type, req.urn)).orThrow();
          const update = { scope, id: req.id, olds: withoutProvider(req.olds), news: withoutProvider(req.news) };
          const { secrets } = schemaOf(req.type);
          if (req.preview)
            return {
              properties: rt.previewUpdate({
                olds: update.olds,
                oldInputs: withoutProvider(req.oldInputs),
                news: update.news,
              }),
              secrets,
            };
          // Only the dynamic provider a migrated stack records differs: drop it, send nothing.
          if (recordsProvider(req.olds) && Object.keys((await rt.diff(update)).detailed).length === 0)
            return { properties: update.olds, secrets };
          return { properties: (await rt.update(update)).outputs, secrets };
        },
        req,
        req.news,
        schemaOf(req.type).secrets,
      ),
    delete: (req) =>
      failing(async (scope) => {
        const rt = (await dispatch(req.type, req.urn)).orThrow();
        await rt.delete({ scope, id: req.id, properties: withoutProvider(req.properties) });
      }, req),
    invoke: (req) => failing((scope) => invoke({ scope }, req, opts.version), { urn: "" }),
    cancel: async () => host.cancel(),
  };
}

/** The logical name of a URN (`urn:pulumi:stack::project::parent$type::name`; a name may hold "::"). */
const nameOfUrn = (urn: string): string => urn.split("::").slice(3).join("::");
