// The bundled native plugin as the engine runs it: spawned with the engine's address as its last
// argument, its port read from the first line of stdout, then driven over gRPC. Plus a fake
// engine that records the Log RPCs the plugin sends.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import path from "node:path";
import type { Readable } from "node:stream";
import { credentials, Server, ServerCredentials, type ServiceError } from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb.js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb.js";
import { EngineService } from "@pulumi/pulumi/proto/engine_grpc_pb.js";
import type { LogRequest } from "@pulumi/pulumi/proto/engine_pb.js";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb.js";
import { REPO_ROOT } from "../helpers/consumer.js";

/** The single-file plugin the build makes (scripts/bundle-plugin.mjs). */
export const PLUGIN_BIN = path.join(REPO_ROOT, "provider", "dist", "plugin", "pulumi-resource-voiceagent");

/** A running plugin process and a client connected to it. */
export interface PluginProcess {
  client: ResourceProviderClient;
  /** Everything the process wrote to stdout, the port line included. */
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Spawns the plugin (or a copy at `bin`) with `args` (the engine's address last) and connects once its port line is read. */
export async function startPlugin(
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
  bin = PLUGIN_BIN,
): Promise<PluginProcess> {
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(bin, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...withoutVoiceagentEnv(process.env), ...env },
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(Number(out.slice(0, nl)));
    });
    child.on("exit", (code) => reject(new Error(`plugin exited (${code}) before its port line: ${err}`)));
  });
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, credentials.createInsecure());
  return {
    client,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      client.close();
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill();
      await exited;
    },
  };
}

/** The environment without VOICEAGENT_* settings, so each test says which it gives. */
function withoutVoiceagentEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith("VOICEAGENT_")));
}

/** One unary call as a promise: `await rpc<CheckResponse>((cb) => client.check(req, cb))`. */
export function rpc<Res>(start: (cb: (err: ServiceError | null, res: Res) => void) => unknown): Promise<Res> {
  return new Promise((resolve, reject) => start((err, res) => (err ? reject(err) : resolve(res))));
}

/** A Struct of plain properties. */
export const struct = (props: Record<string, unknown>): Struct =>
  Struct.fromJavaScript(JSON.parse(JSON.stringify(props)));

/** A fake engine: its address for the plugin's argv, and every Log request it received. */
export interface FakeEngine {
  address: string;
  logs: { severity: number; message: string; urn: string }[];
  stop(): Promise<void>;
}

/** Starts a gRPC Engine service on 127.0.0.1:0 that records Log calls. */
export async function startFakeEngine(): Promise<FakeEngine> {
  const logs: FakeEngine["logs"] = [];
  const server = new Server();
  server.addService(EngineService, {
    log(call: { request: LogRequest }, cb: (err: null, res: Empty) => void) {
      logs.push({
        severity: call.request.getSeverity(),
        message: call.request.getMessage(),
        urn: call.request.getUrn(),
      });
      cb(null, new Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { address: `127.0.0.1:${port}`, logs, stop: () => new Promise((r) => server.tryShutdown(() => r())) };
}
