import {
  Metadata,
  Server,
  ServerCredentials,
  status,
  type handleUnaryCall,
  type sendUnaryData,
  type ServerUnaryCall,
  type StatusObject,
} from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb.js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb.js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb.js";
import { type PluginAttach, PluginInfo } from "@pulumi/pulumi/proto/plugin_pb.js";
import { ResourceProviderService, type IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import * as pb from "@pulumi/pulumi/proto/provider_pb.js";
import { Status } from "@pulumi/pulumi/proto/status_pb.js";
import type { Props } from "../resources/kit/kind.js";
import type { EngineError } from "../engine-log.js";
import { parsePath, type PathStep } from "./property-path.js";
import {
  ProviderFailure,
  type AutonamingMode,
  Secret,
  type CheckRequest,
  type DiffKind,
  type DiffResponse,
  type PlainProvider,
} from "./protocol.js";

// The protobuf edge: the only module that knows the engine's wire types. Requests become the plain
// objects of protocol.ts, results go back as protobuf messages, and a failure as a gRPC status.
// Property values arrive in a google.protobuf.Struct with the engine's own sentinels (pulumi/pulumi
// 3.276.0 sdk/nodejs/runtime/rpc.ts: `unknownValue`, `specialSigKey`, `specialSecretSig`).
// Unknowns (preview) are kept as the string the kit knows (kit/unknown.ts). Secrets are unwrapped
// on the way in, and each output whose input of the same name held one is re-marked secret on the
// way out (annotateSecrets, the engine's own rule). The outputs a response names secret are wrapped on the
// way out: the engine reads outputs with KeepSecrets: true, so they stay secret on every path,
// `pulumi import` included, where it re-marks nothing. Read's inputs too: an import stores them as
// Read gives them (ImportStep.Apply, pkg/resource/deploy/step.go), so an input of a secret's name
// (a vector database's apiKey) must leave as a secret there as well.

/** The key that marks a special value (secret, asset, resource reference) in a Struct. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The signature of a secret: `{[SIG_KEY]: SECRET_SIG, value}`. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

const isSecret = (v: unknown): boolean =>
  !!v && typeof v === "object" && !Array.isArray(v) && Object.fromEntries(Object.entries(v))[SIG_KEY] === SECRET_SIG;

/** A value with every secret wrapper replaced by the value it holds. */
export function unwrapSecrets(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  if (v && typeof v === "object") {
    const o = Object.fromEntries(Object.entries(v));
    if (o[SIG_KEY] === SECRET_SIG) return unwrapSecrets(o.value);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, unwrapSecrets(x)]));
  }
  return v;
}

/** The properties in a request's Struct (none when it is absent), secrets unwrapped. */
export function propsOf(s: Struct | undefined): Props {
  if (!s) return {};
  return Object.fromEntries(Object.entries(s.toJavaScript()).map(([k, v]) => [k, unwrapSecrets(v)]));
}

/** A value a Struct can hold. */
type StructValue = ReturnType<Struct["toJavaScript"]>[string];

/** A JSON-like value as a Struct value: undefined members are left out (a missing key reads as unset). */
function structValue(v: unknown): StructValue {
  if (v === undefined || v === null) return null;
  // A function's secret result key, in the engine's own wrapper (it keeps Invoke's secrets).
  if (v instanceof Secret) return { [SIG_KEY]: SECRET_SIG, value: structValue(v.value) };
  if (Array.isArray(v)) return v.map(structValue);
  if (typeof v === "object") return structRecord(Object.entries(v));
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  return String(v);
}

function structRecord(entries: [string, unknown][]): Record<string, StructValue> {
  return Object.fromEntries(entries.flatMap(([k, x]) => (x === undefined ? [] : [[k, structValue(x)]])));
}

/** `v` with the value at each path `steps` wrapped as a secret (`*` is every key or element); null and absent stay as they are. */
function secretAt(v: StructValue, steps: readonly PathStep[]): StructValue {
  if (v === null || v === undefined || isSecret(v)) return v;
  const [step, ...rest] = steps;
  if (step === undefined) return { [SIG_KEY]: SECRET_SIG, value: v };
  if (Array.isArray(v)) return v.map((x, i) => (step === "*" || step === i ? secretAt(x, rest) : x));
  if (typeof v === "object")
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, step === "*" || step === k ? secretAt(x, rest) : x]),
    );
  return v;
}

/**
 * Properties as a Struct for a response; the values at the `secrets` paths (a top-level name, or a
 * nested path from the schema: plugin/schema-outputs.ts) that hold a value are wrapped as secrets.
 * The engine re-marks an output secret only where the input of the same path was (`annotateSecrets`),
 * so an output-only secret, at any depth, is marked here.
 */
export function structOf(props: Props, secrets: readonly string[] = []): Struct {
  let record: StructValue = structRecord(Object.entries(props));
  for (const path of secrets) {
    const steps = parsePath(path);
    if (steps) record = secretAt(record, steps);
  }
  return Struct.fromJavaScript(
    record !== null && typeof record === "object" && !Array.isArray(record)
      ? Object.fromEntries(Object.entries(record))
      : {},
  );
}

/**
 * `props` as a Struct for a response that also carries `built` (the Struct of `builtFrom`, with the
 * same `secrets`): a value that is the very same one in both is taken from `built`, not converted
 * again. A read answers its outputs and its inputs, which are the outputs less the kind's
 * output-only properties: converting each value once halves what a refresh spends on them. A
 * message is only read when the response is serialized, so one value may sit in both.
 */
export function structWith(built: Struct, builtFrom: Props, props: Props, secrets: readonly string[] = []): Struct {
  const fields = built.getFieldsMap();
  const shared = new Struct();
  const into = shared.getFieldsMap();
  const own: Props = {};
  for (const [key, value] of Object.entries(props)) {
    const same = value !== undefined && value === builtFrom[key] ? fields.get(key) : undefined;
    if (same) into.set(key, same);
    else own[key] = value;
  }
  structOf(own, secrets)
    .getFieldsMap()
    .forEach((value, key) => {
      into.set(key, value);
    });
  return shared;
}

/** Whether a value holds a secret anywhere. */
function containsSecret(v: unknown): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecret);
  if (v && typeof v === "object") return Object.values(v).some(containsSecret);
  return false;
}

/**
 * `out` with each value secret whose input of the same name held a secret, as the engine itself
 * does for a plugin that takes no secrets (`annotateSecrets` in sdk/go/common/resource/plugin/
 * provider_plugin.go, pulumi v3.274.1): this plugin takes them (Construct needs it: "plugins that
 * can construct components must support secrets"), so it keeps a secret input's output secret
 * itself. Objects on both sides are walked by key; anything else is wrapped whole.
 */
export function annotateSecrets(out: Struct, ins: Struct | undefined): Struct {
  const given = ins?.toJavaScript();
  if (!given || !containsSecret(given)) return out;
  const walk = (o: Record<string, StructValue>, i: Record<string, unknown>): Record<string, StructValue> =>
    Object.fromEntries(
      Object.entries(o).map(([k, v]): [string, StructValue] => {
        const inValue = i[k];
        if (!(k in i)) return [k, v];
        const plain = (x: unknown): x is Record<string, StructValue> =>
          !!x && typeof x === "object" && !Array.isArray(x) && !isSecret(x);
        if (plain(v) && plain(inValue)) return [k, walk(v, inValue)];
        return [k, !isSecret(v) && containsSecret(inValue) ? { [SIG_KEY]: SECRET_SIG, value: v } : v];
      }),
    );
  return Struct.fromJavaScript(walk(out.toJavaScript(), given));
}

const KIND: Record<DiffKind, pb.PropertyDiff.Kind> = {
  add: pb.PropertyDiff.Kind.ADD,
  "add-replace": pb.PropertyDiff.Kind.ADD_REPLACE,
  delete: pb.PropertyDiff.Kind.DELETE,
  "delete-replace": pb.PropertyDiff.Kind.DELETE_REPLACE,
  update: pb.PropertyDiff.Kind.UPDATE,
  "update-replace": pb.PropertyDiff.Kind.UPDATE_REPLACE,
};

function diffMessage(d: DiffResponse): pb.DiffResponse {
  const resp = new pb.DiffResponse();
  const details = resp.getDetaileddiffMap();
  for (const [key, change] of Object.entries(d.detailed))
    details.set(key, new pb.PropertyDiff().setKind(KIND[change.kind]).setInputdiff(change.inputDiff));
  resp.setChanges(d.changes ? pb.DiffResponse.DiffChanges.DIFF_SOME : pb.DiffResponse.DiffChanges.DIFF_NONE);
  resp.setDiffsList(Object.keys(d.detailed));
  resp.setReplacesList(d.replaces);
  resp.setStablesList(d.stables);
  resp.setDeletebeforereplace(d.deleteBeforeReplace);
  resp.setHasdetaileddiff(true);
  return resp;
}

/** What a handler answers with when it fails. */
type Failure = Partial<StatusObject>;

/**
 * A failure as the engine reads it: its message alone, and for a partial create
 * `pulumirpc.ErrorResourceInitFailed` in the status details, so the engine keeps the object tracked
 * with its id and outputs, as the dynamic host does.
 */
function failureStatus(err: unknown): Failure {
  const message = err instanceof Error ? err.message : String(err);
  const partial = err instanceof ProviderFailure ? err.partial : undefined;
  if (!partial) return { code: status.UNKNOWN, details: message };
  const detail = new pb.ErrorResourceInitFailed()
    .setId(partial.id)
    .setProperties(structOf(partial.properties, partial.secrets))
    .setReasonsList(partial.reasons);
  if (partial.inputs) detail.setInputs(structOf(partial.inputs));
  const any = new Any();
  any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const st = new Status().setCode(status.UNKNOWN).setMessage(message);
  st.addDetails(any);
  const metadata = new Metadata();
  // grpc-js has no structured details: the Go side reads them from this trailer.
  metadata.add("grpc-status-details-bin", Buffer.from(st.serializeBinary()));
  return { code: status.UNKNOWN, details: message, metadata };
}

/** The handlers this plugin implements (the rest answer UNIMPLEMENTED). */
export type Handlers = Pick<
  IResourceProviderServer,
  | "getPluginInfo"
  | "getSchema"
  | "checkConfig"
  | "diffConfig"
  | "configure"
  | "check"
  | "diff"
  | "create"
  | "read"
  | "update"
  | "delete"
  | "cancel"
  | "invoke"
  | "handshake"
  | "attach"
  | "construct"
>;

/**
 * One unary method: answers its failure as the engine reads it. The request's URN travels in the
 * plain request, into its scope (kit/scope.ts), which sends its notes under it.
 */
function unary<Req, Res>(work: (req: Req) => Promise<Res>): handleUnaryCall<Req, Res> {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    work(call.request).then(
      (res) => callback(null, res),
      (err: unknown) => {
        const failure = failureStatus(err);
        callback(failure, null, failure.metadata);
      },
    );
  };
}

const MODE: Record<pb.CheckRequest.AutonamingOptions.Mode, AutonamingMode> = {
  [pb.CheckRequest.AutonamingOptions.Mode.PROPOSE]: "propose",
  [pb.CheckRequest.AutonamingOptions.Mode.ENFORCE]: "enforce",
  [pb.CheckRequest.AutonamingOptions.Mode.DISABLE]: "disable",
};
const checkRequest = (req: pb.CheckRequest): CheckRequest => {
  const naming = req.getAutonaming();
  return {
    urn: req.getUrn(),
    type: req.getType(),
    name: req.getName(),
    olds: propsOf(req.getOlds()),
    news: propsOf(req.getNews()),
    ...(naming ? { autonaming: { mode: MODE[naming.getMode()], proposedName: naming.getProposedName() } } : {}),
  };
};
const diffRequest = (req: pb.DiffRequest) => {
  const oldInputs = req.getOldInputs();
  return {
    urn: req.getUrn(),
    type: req.getType(),
    id: req.getId(),
    olds: propsOf(req.getOlds()),
    news: propsOf(req.getNews()),
    ...(oldInputs ? { oldInputs: propsOf(oldInputs) } : {}),
    ignoreChanges: req.getIgnorechangesList(),
  };
};
const checkMessage = (r: { inputs?: Props; failures: { property: string; reason: string }[] }) => {
  const resp = new pb.CheckResponse();
  if (r.inputs) resp.setInputs(structOf(r.inputs));
  return resp.setFailuresList(r.failures.map((f) => new pb.CheckFailure().setProperty(f.property).setReason(f.reason)));
};

/** Configure's older `variables` map (`voiceagent:config:<key>`) as config keys. */
function variablesOf(vars: [string, string][]): Props {
  return Object.fromEntries(vars.map(([k, v]) => [k.replace(/^[^:]+:config:/, ""), v]));
}

/**
 * What this plugin tells the engine it takes, at Handshake and again at Configure (an engine that
 * does not handshake reads them there; one that did keeps the Handshake's: sdk/go/common/resource/
 * plugin/provider_plugin.go `NewProvider` and `Configure`, pulumi v3.259.0 to v3.274.1). Secrets: the engine
 * serves Construct only to a plugin that takes them; each request's are unwrapped here and its
 * outputs re-marked secret by input name ({@link annotateSecrets}), as the engine did before. No
 * resource references or output values; autonaming: Check honours `pulumi:autonaming` (kit/autoname.ts).
 */
const ACCEPTS = { secrets: true, resources: false, outputs: false, autonaming: true } as const;

/** What the process does when the engine names its address: at Handshake (every engine of 3.137 on) and at Attach. */
export type OnEngine = (address: string) => void;

/**
 * A partial create as the user should read it: one message, not the engine's list of reasons.
 * The engine prints a partial create's reasons, never its message, through go-multierror (pulumi
 * v3.274.1 pkg/resource/plugin/provider_plugin.go `InitError.Error`): one reason reads
 * `1 error occurred:\n\t* <reason>`, and no reason reads `resource init failed`. So the message
 * is shown first, as an error under the resource, and the partial create goes with no reason,
 * which the engine follows with its own `resource init failed`. Only for an unsettled create:
 * what keeps its next run from sending is the provisional id and the provider's diff
 * (kit/unsettled.ts). An object made but not read back keeps its reason, because the engine
 * finishes it at the next run only when it recorded init errors (`retriedByReasons`). Without an
 * engine to show it (a plugin started by hand before Handshake), the message stays the reason.
 */
async function shownPartial(err: unknown, urn: string, showError: EngineError): Promise<unknown> {
  if (!(err instanceof ProviderFailure) || !err.partial || err.partial.retriedByReasons) return err;
  if (!(await showError(err.message, urn))) return err;
  return new ProviderFailure(err.message, { ...err.partial, reasons: [] }, err.code, err.mayHaveActed);
}

/**
 * The `pulumirpc.ResourceProvider` service over a plain provider. Unlike `@pulumi/pulumi/provider`'s
 * main(), it implements CheckConfig/DiffConfig and reads Configure's request; it re-marks outputs
 * secret by input name itself ({@link annotateSecrets}). `onEngine` hears
 * the engine's address from Handshake and Attach: a plugin started by hand (PULUMI_DEBUG_PROVIDERS)
 * learns it only there.
 */
export function grpcHandlers(
  provider: PlainProvider,
  onEngine: OnEngine = () => {},
  showError: EngineError = async () => false,
): Handlers {
  // Where Construct points the Node SDK's runtime for its logs: the engine this plugin serves.
  let engine = "";
  const heard: OnEngine = (address) => {
    engine = address;
    onEngine(address);
  };
  return {
    // The engine's first call to a plugin it started, before Configure (`handshake` in
    // provider_plugin.go): the engine's address again, and the program's and plugin's folders,
    // which this plugin has no use for.
    handshake: unary(async (req: pb.ProviderHandshakeRequest) => {
      if (req.getEngineAddress()) heard(req.getEngineAddress());
      return new pb.ProviderHandshakeResponse()
        .setAcceptSecrets(ACCEPTS.secrets)
        .setAcceptResources(ACCEPTS.resources)
        .setAcceptOutputs(ACCEPTS.outputs)
        .setSupportsAutonamingConfiguration(ACCEPTS.autonaming);
    }),
    // PULUMI_DEBUG_PROVIDERS=voiceagent:<port>: the engine dials a plugin it did not start, and
    // gives its address here instead of on the command line (provider_plugin.go `NewProvider`).
    attach: unary(async (req: PluginAttach) => {
      heard(req.getAddress());
      return new Empty();
    }),
    getPluginInfo: unary(async () => new PluginInfo().setVersion(provider.getPluginInfo().version)),
    getSchema: unary(async () => new pb.GetSchemaResponse().setSchema(provider.getSchema())),
    checkConfig: unary(async (req: pb.CheckRequest) => checkMessage(await provider.checkConfig(checkRequest(req)))),
    diffConfig: unary(async (req: pb.DiffRequest) => diffMessage(await provider.diffConfig(diffRequest(req)))),
    configure: unary(async (req: pb.ConfigureRequest) => {
      // `args` holds the config with secrets kept (the token arrives wrapped); `variables` is the
      // older form, keyed `voiceagent:config:<key>`, for engines that send no args.
      const args = req.getArgs();
      const raw = args?.toJavaScript();
      await provider.configure(
        args && raw
          ? { config: propsOf(args), plainKeys: Object.keys(raw).filter((k) => !isSecret(raw[k])) }
          : { config: variablesOf(req.getVariablesMap().toObject()) },
      );
      return new pb.ConfigureResponse()
        .setAcceptsecrets(ACCEPTS.secrets)
        .setAcceptresources(ACCEPTS.resources)
        .setSupportspreview(true)
        .setAcceptoutputs(ACCEPTS.outputs)
        .setSupportsAutonamingConfiguration(ACCEPTS.autonaming);
    }),
    check: unary(async (req: pb.CheckRequest) => {
      const resp = checkMessage(await provider.check(checkRequest(req)));
      const inputs = resp.getInputs();
      return inputs ? resp.setInputs(annotateSecrets(inputs, req.getNews())) : resp;
    }),
    diff: unary(async (req: pb.DiffRequest) => diffMessage(await provider.diff(diffRequest(req)))),
    create: unary(async (req: pb.CreateRequest) => {
      const made = await provider
        .create({
          urn: req.getUrn(),
          type: req.getType(),
          properties: propsOf(req.getProperties()),
          preview: req.getPreview(),
          timeout: req.getTimeout(),
        })
        .catch(async (err: unknown) => {
          throw await shownPartial(err, req.getUrn(), showError);
        });
      const resp = new pb.CreateResponse().setProperties(
        annotateSecrets(structOf(made.properties, made.secrets), req.getProperties()),
      );
      return made.id ? resp.setId(made.id) : resp;
    }),
    read: unary(async (req: pb.ReadRequest) => {
      const got = await provider.read({
        urn: req.getUrn(),
        type: req.getType(),
        id: req.getId(),
        properties: propsOf(req.getProperties()),
        inputs: propsOf(req.getInputs()),
        timeout: req.getTimeout(),
      });
      const resp = new pb.ReadResponse().setId(got.id);
      if (!got.properties) return resp;
      const properties = structOf(got.properties, got.secrets);
      return resp
        .setProperties(annotateSecrets(properties, req.getProperties()))
        .setInputs(annotateSecrets(structWith(properties, got.properties, got.inputs, got.secrets), req.getInputs()));
    }),
    update: unary(async (req: pb.UpdateRequest) => {
      const olds = propsOf(req.getOlds());
      const news = propsOf(req.getNews());
      const updated = await provider.update({
        urn: req.getUrn(),
        type: req.getType(),
        id: req.getId(),
        olds,
        oldInputs: propsOf(req.getOldInputs()),
        news,
        preview: req.getPreview(),
        timeout: req.getTimeout(),
      });
      return new pb.UpdateResponse().setProperties(
        annotateSecrets(structOf(updated.properties, updated.secrets), req.getNews()),
      );
    }),
    delete: unary(async (req: pb.DeleteRequest) => {
      await provider.delete({
        urn: req.getUrn(),
        type: req.getType(),
        id: req.getId(),
        properties: propsOf(req.getProperties()),
        timeout: req.getTimeout(),
      });
      return new Empty();
    }),
    invoke: unary(async (req: pb.InvokeRequest) => {
      const answer = await provider.invoke({ tok: req.getTok(), args: propsOf(req.getArgs()) });
      const resp = new pb.InvokeResponse().setReturn(structOf(answer.return));
      return resp.setFailuresList(
        answer.failures.map((f) => new pb.CheckFailure().setProperty(f.property).setReason(f.reason)),
      );
    }),
    // A component (the Fleet) registers its children through the engine's monitor from here
    // (plugin/construct.ts, loaded on the first one): the response is its URN and its outputs.
    construct: unary(async (req: pb.ConstructRequest) => {
      const { construct }: typeof import("./construct.js") = require("./construct.js");
      const made = await construct(req, engine);
      const resp = new pb.ConstructResponse()
        .setUrn(made.urn)
        .setState(Struct.fromJavaScript(structRecord(Object.entries(made.state))));
      const deps = resp.getStatedependenciesMap();
      for (const [key, urns] of Object.entries(made.dependencies))
        deps.set(key, new pb.ConstructResponse.PropertyDependencies().setUrnsList(urns));
      return resp;
    }),
    // The engine cancels (Ctrl-C, a pipeline's timeout: deployment_executor.go `Execute` calls
    // every provider's Cancel): nothing more is sent and requests in flight are aborted before
    // this answers; the operations they belong to fail saying what they may have done. Answering
    // also tells the engine the exit that follows is a shutdown, not a crash.
    cancel: unary(async () => {
      await provider.cancel();
      return new Empty();
    }),
  };
}

/** The largest message the engine sends or accepts (sdk/go/common/util/rpcutil MaxRPCMessageSize: 400 MiB). */
const MAX_MESSAGE = 400 * 1024 * 1024;

/** Serves the provider on 127.0.0.1 and answers the port it listens on; `onEngine` and `showError` as for {@link grpcHandlers}. */
export async function listen(provider: PlainProvider, onEngine?: OnEngine, showError?: EngineError): Promise<number> {
  const server = new Server({
    "grpc.max_receive_message_length": MAX_MESSAGE,
    "grpc.max_send_message_length": MAX_MESSAGE,
  });
  server.addService(ResourceProviderService, grpcHandlers(provider, onEngine, showError));
  return new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
}
