import type { handleUnaryCall, sendUnaryData, ServerUnaryCall } from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb.js";
import type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import {
  CheckFailure,
  CheckResponse,
  ConfigureResponse,
  CreateResponse,
  DiffResponse,
  GetSchemaResponse,
  InvokeResponse,
  PropertyDiff,
  ReadResponse,
  UpdateResponse,
  type CheckRequest,
  type ConfigureRequest,
  type CreateRequest,
  type DeleteRequest,
  type DiffRequest,
  type InvokeRequest,
  type ReadRequest,
  type UpdateRequest,
} from "@pulumi/pulumi/proto/provider_pb.js";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb.js";
import type { Props } from "../resources/kit/kind.js";
import type { ProviderSettings } from "../resources/kit/settings.js";
import { persistCompileCache } from "./compile-cache.js";
import { detailedDiff, diffResponse } from "./detailed-diff.js";
import { inRequest } from "./engine-log.js";
import type { KindLookup } from "./kinds.js";
import { previewOutputs, schemaProperties } from "./schema-outputs.js";
import { invoke } from "./invoke.js";
import { propsOf, SECRET_SIG, SIG_KEY, structOf, withoutProvider } from "./wire.js";

type Kit = typeof import("./kit.js");
let loaded: Promise<Kit> | undefined;
/** The kit, loaded once, on first use (see kit.ts). */
const kit = (): Promise<Kit> =>
  (loaded ??= import("./kit.js").then((k) => {
    persistCompileCache();
    return k;
  }));

/** What the service is built from: the plugin's version and the package schema. */
export interface ServiceOptions {
  version: string;
  schema: string;
}

type Handlers = Pick<
  IResourceProviderServer,
  "getPluginInfo" | "getSchema" | "checkConfig" | "diffConfig" | "configure" | "check" | "diff" | "create" | "read" | "update" | "delete" | "cancel" | "invoke"
>;

/** One unary method: runs with the request's URN in scope (for notes) and answers its failure as the engine reads it. */
function unary<Req, Res>(urnOf: (req: Req) => string, work: (req: Req) => Promise<Res>, inputsOf?: (req: Req) => Props): handleUnaryCall<Req, Res> {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    inRequest(urnOf(call.request), () => work(call.request)).then(
      (res) => callback(null, res),
      async (err: unknown) => {
        const failure = (await kit()).failureOf(err, inputsOf?.(call.request));
        callback(failure, null, "metadata" in failure ? failure.metadata : undefined);
      },
    );
  };
}

const urnOf = (req: { getUrn(): string | undefined }) => req.getUrn() ?? "";

/**
 * The `pulumirpc.ResourceProvider` service for every kind, through the kinds' runtimes only
 * (kit/runtime.ts): the same checks, diffs, exactly-once creates, claims and messages as the
 * dynamic path. Unlike `@pulumi/pulumi/provider`'s main(), it implements CheckConfig/DiffConfig,
 * reads Configure's request, and answers `acceptSecrets: false`, so the engine keeps re-marking
 * outputs secret by input name (pkg/resource/plugin/provider_plugin.go in pulumi v3.259.0).
 */
export function providerService(opts: ServiceOptions): Handlers {
  let settings: ProviderSettings | undefined;
  let requested: string | undefined;
  const properties = schemaProperties(opts.schema);
  const lookup = async (type: string, urn: string): Promise<KindLookup> => (await kit()).kindFor(type, urn, opts.version, requested);

  return {
    getPluginInfo: unary(() => "", async () => new PluginInfo().setVersion(opts.version)),
    getSchema: unary(() => "", async () => new GetSchemaResponse().setSchema(opts.schema)),

    checkConfig: unary(urnOf, async (req: CheckRequest) => {
      const { configFailures, requestedVersion } = await kit();
      const news = propsOf(req.getNews());
      requested = requestedVersion(news) ?? requested;
      const resp = new CheckResponse().setInputs(structOf(news));
      resp.setFailuresList(configFailures(news).map((f) => new CheckFailure().setProperty(f.property).setReason(f.reason)));
      return resp;
    }),
    diffConfig: unary(urnOf, async (req: DiffRequest) => {
      const olds = propsOf(req.getOldInputs() ?? req.getOlds());
      const news = propsOf(req.getNews());
      const changed = (await kit()).changedKeys(olds, news);
      const resp = new DiffResponse();
      // Never a replacement: a new token or URL addresses the same objects (or fails at Check).
      resp.setChanges(changed.length ? DiffResponse.DiffChanges.DIFF_SOME : DiffResponse.DiffChanges.DIFF_NONE);
      resp.setDiffsList(changed);
      for (const key of changed) {
        const kind = olds[key] === undefined ? PropertyDiff.Kind.ADD : news[key] === undefined ? PropertyDiff.Kind.DELETE : PropertyDiff.Kind.UPDATE;
        resp.getDetaileddiffMap().set(key, new PropertyDiff().setKind(kind).setInputdiff(true));
      }
      resp.setHasdetaileddiff(true);
      return resp;
    }),
    configure: unary(urnOf, async (req: ConfigureRequest) => {
      // `args` holds the config with secrets kept (the token arrives wrapped); `variables` is the
      // older form, keyed `voiceagent:config:<key>`, for engines that send no args.
      const { requestedVersion, settingsOf, PLAIN_TOKEN, containsUnknown } = await kit();
      // Only here does the engine show whether the token was a secret: a plain one would be
      // recorded unencrypted among the provider's inputs in the state, so it is refused before
      // anything is sent (the dynamic path refuses it in the program).
      const token = req.getArgs()?.toJavaScript().token;
      if (typeof token === "string" && !containsUnknown(token)) throw new Error(`${PLAIN_TOKEN}; nothing was sent to the service`);
      const args = req.getArgs() ? propsOf(req.getArgs()) : variablesOf(req.getVariablesMap().toObject());
      requested = requestedVersion(args) ?? requested;
      settings = settingsOf(args);
      return new ConfigureResponse().setAcceptsecrets(false).setAcceptresources(false).setSupportspreview(true).setAcceptoutputs(false);
    }),

    check: unary(urnOf, async (req: CheckRequest) => {
      const kind = await lookup(req.getType(), req.getUrn());
      const resp = new CheckResponse();
      if (!kind.runtime) return resp.setFailuresList([new CheckFailure().setProperty("").setReason(kind.problem)]);
      const news = propsOf(req.getNews());
      const result = await kind.runtime.check(settings, propsOf(req.getOlds()), news);
      resp.setInputs(structOf(withoutProvider(result.inputs ?? news)));
      resp.setFailuresList((result.failures ?? []).map((f) => new CheckFailure().setProperty(f.property).setReason(kind.explainUnknown(f.reason))));
      return resp;
    }),
    diff: unary(urnOf, async (req: DiffRequest) => {
      const rt = (await lookup(req.getType(), req.getUrn())).orThrow();
      const olds = propsOf(req.getOlds());
      const news = propsOf(req.getNews());
      const d = await detailedDiff(rt, settings, req.getId(), olds, propsOf(req.getOldInputs()), news);
      return diffResponse(d, olds, news);
    }),
    create: unary(
      urnOf,
      async (req: CreateRequest) => {
        const rt = (await lookup(req.getType(), req.getUrn())).orThrow();
        const inputs = withoutProvider(propsOf(req.getProperties()));
        // A preview sends nothing: the inputs, and what the service decides as unknown.
        if (req.getPreview()) return new CreateResponse().setProperties(structOf(previewOutputs(inputs, properties.get(req.getType()) ?? [])));
        const made = await rt.create(settings, inputs);
        return new CreateResponse().setId(made.id).setProperties(structOf(made.outs ?? {}));
      },
      (req) => propsOf(req.getProperties()),
    ),
    read: unary(urnOf, async (req: ReadRequest) => {
      const rt = (await lookup(req.getType(), req.getUrn())).orThrow();
      const recorded = withoutProvider(propsOf(req.getProperties()));
      const got = await rt.read(settings, req.getId(), recorded);
      if (Object.keys(recorded).length === 0 && got.id && !got.inputs) {
        // An import, and the kit kept what was recorded (nothing): this server cannot read the kind.
        throw new Error(
          `${req.getType()} ${req.getId()} cannot be imported: this service has no route to read it, so nothing was imported or changed. ` +
            "Declare it in the program with its adopting input (agentId, voiceId...) instead",
        );
      }
      const resp = new ReadResponse().setId(got.id ?? "");
      if (!got.id) return resp;
      resp.setProperties(structOf(withoutProvider(got.props ?? {})));
      // `pulumi import` reads with no properties and needs inputs back, or it says the provider cannot import.
      const inputs = got.inputs ?? withoutProvider(propsOf(req.getInputs()));
      resp.setInputs(structOf(withoutProvider(inputs)));
      return resp;
    }),
    update: unary(
      urnOf,
      async (req: UpdateRequest) => {
        const rt = (await lookup(req.getType(), req.getUrn())).orThrow();
        const olds = propsOf(req.getOlds());
        const news = propsOf(req.getNews());
        const state = withoutProvider(olds);
        if (req.getPreview()) return new UpdateResponse().setProperties(structOf(previewUpdate(state, propsOf(req.getOldInputs()), news)));
        // Only the migrated-from-dynamic `__provider` differs: drop it, send nothing.
        if ("__provider" in olds && !(await rt.diff(settings, req.getId(), state, news)).changes) {
          return new UpdateResponse().setProperties(structOf(state));
        }
        const updated = await rt.update(settings, req.getId(), state, news);
        return new UpdateResponse().setProperties(structOf(updated.outs ?? {}));
      },
      (req) => propsOf(req.getNews()),
    ),
    delete: unary(urnOf, async (req: DeleteRequest) => {
      const rt = (await lookup(req.getType(), req.getUrn())).orThrow();
      await rt.delete(settings, req.getId(), withoutProvider(propsOf(req.getProperties())));
      return new Empty();
    }),
    invoke: unary(() => "", async (req: InvokeRequest) => {
      const tok = req.getTok();
      const answer = await invoke(settings, { tok, args: propsOf(req.getArgs()) }, opts.version, (value) => ({ [SIG_KEY]: SECRET_SIG, value }));
      const resp = new InvokeResponse().setReturn(structOf(answer.return));
      return resp.setFailuresList(answer.failures.map((f) => new CheckFailure().setProperty(f.property).setReason(f.reason)));
    }),
    // Nothing to stop: every request ends with its own retry budget. Acknowledging tells the
    // engine the exit that follows is a shutdown, not a crash.
    cancel: unary(() => "", async () => new Empty()),
  };
}

/** Configure's older `variables` map (`voiceagent:config:<key>`) as config keys. */
function variablesOf(vars: [string, string][]): Props {
  return Object.fromEntries(vars.map(([k, v]) => [k.replace(/^[^:]+:config:/, ""), v]));
}

/** A preview of an update: the recorded outputs with the program's inputs over them (unknowns stay unknown). */
function previewUpdate(state: Props, oldInputs: Props, news: Props): Props {
  const out: Props = { ...state };
  for (const key of Object.keys(oldInputs)) if (!(key in news)) delete out[key];
  return { ...out, ...news };
}
