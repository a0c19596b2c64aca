// The native floor: a plugin serving the same types as pulumi-resource-voiceagent
// (each kind's native token, provider `pulumi:providers:voiceagent`) that does nothing but echo.
// It speaks the same protocol on the same libraries (@grpc/grpc-js and the proto modules
// @pulumi/pulumi ships, as provider/plugin/ does) and answers Configure the same way, so the
// engine treats both alike; what it leaves out is everything the kinds do. Bundled into one
// CommonJS file by bundle.ts (never run from dist/: Node's ES module loader cannot see these
// CommonJS modules' names).
import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import {
  Server,
  ServerCredentials,
  type handleUnaryCall,
  type sendUnaryData,
  type ServerUnaryCall,
} from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb.js";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb.js";
import { ResourceProviderService, type IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import {
  CheckResponse,
  ConfigureResponse,
  CreateResponse,
  DiffResponse,
  GetSchemaResponse,
  ReadResponse,
  UpdateResponse,
} from "@pulumi/pulumi/proto/provider_pb.js";
import { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb.js";

/** The version it answers with: the real plugin's (bundle.ts defines it). */
declare const NATIVE_FLOOR_VERSION: string;

/** The largest message the engine sends or accepts, as the real plugin sets it. */
const MAX_MESSAGE = 400 * 1024 * 1024;

/** A unary handler from a synchronous answer. */
function unary<Req, Res>(answer: (req: Req) => Res): handleUnaryCall<Req, Res> {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => callback(null, answer(call.request));
}

/** Whether two property bags differ (the one piece of work a diff cannot skip). */
const differ = (a: Struct | undefined, b: Struct | undefined): boolean =>
  !isDeepStrictEqual(a?.toJavaScript() ?? {}, b?.toJavaScript() ?? {});

const diffOf = (olds: Struct | undefined, news: Struct | undefined): DiffResponse =>
  new DiffResponse().setChanges(
    differ(olds, news) ? DiffResponse.DiffChanges.DIFF_SOME : DiffResponse.DiffChanges.DIFF_NONE,
  );

type Handlers = Pick<
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
>;

const service: Handlers = {
  getPluginInfo: unary(() => new PluginInfo().setVersion(NATIVE_FLOOR_VERSION)),
  getSchema: unary(() =>
    new GetSchemaResponse().setSchema(JSON.stringify({ name: "voiceagent", version: NATIVE_FLOOR_VERSION })),
  ),
  checkConfig: unary((req) => new CheckResponse().setInputs(req.getNews())),
  diffConfig: unary((req) => diffOf(req.getOldInputs() ?? req.getOlds(), req.getNews())),
  configure: unary(() =>
    new ConfigureResponse()
      .setAcceptsecrets(false)
      .setAcceptresources(false)
      .setSupportspreview(true)
      .setAcceptoutputs(false),
  ),
  check: unary((req) => new CheckResponse().setInputs(req.getNews())),
  diff: unary((req) => diffOf(req.getOldInputs() ?? req.getOlds(), req.getNews())),
  create: unary((req) =>
    new CreateResponse().setId(req.getPreview() ? "" : randomUUID()).setProperties(req.getProperties()),
  ),
  read: unary((req) =>
    new ReadResponse().setId(req.getId()).setProperties(req.getProperties()).setInputs(req.getInputs()),
  ),
  update: unary((req) => new UpdateResponse().setProperties(req.getNews())),
  delete: unary(() => new Empty()),
  cancel: unary(() => new Empty()),
};

console.log = console.info = console.error;
const server = new Server({
  "grpc.max_receive_message_length": MAX_MESSAGE,
  "grpc.max_send_message_length": MAX_MESSAGE,
});
server.addService(ResourceProviderService, service);
server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    process.stderr.write(`native floor plugin: ${err.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});
