// The native plugin in-process, without spawning the bundle: the plain provider
// (provider/plugin/plain-provider.ts) built from the package's schema and version, and its
// gRPC handlers (provider/plugin/grpc.ts) called directly, as the server would call them. Notes
// are collected instead of going to the engine. The process contract (port line, engine address,
// Log RPC) stays with the spawned bundle (test/plugin/process.test.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { handleUnaryCall, Metadata } from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb.js";
import { ConfigureRequest } from "@pulumi/pulumi/proto/provider_pb.js";
import { vi } from "vitest";
import { grpcHandlers, type Handlers } from "../../provider/plugin/grpc.js";
import type { PlainProvider } from "../../provider/plugin/protocol.js";
import { plainProvider } from "../../provider/plugin/plain-provider.js";
import { Host } from "../../provider/host.js";
import { REPO_ROOT } from "./consumer.js";

const packageFile = (name: string) => readFileSync(path.join(REPO_ROOT, "provider", name), "utf8");
/** The version the plugin serves (the package's). */
export const PLUGIN_VERSION = (JSON.parse(packageFile("package.json")) as { version: string }).version;

/** The plugin in this process: its plain provider, and the same provider behind its protobuf edge. */
export interface InProcessPlugin {
  provider: PlainProvider;
  grpc: Handlers;
}

/** A fresh plugin (its own configuration and its own host, as a plugin process has), serving the committed schema. */
export function inProcessPlugin(host: Host = new Host()): InProcessPlugin {
  const provider = plainProvider({ version: PLUGIN_VERSION, schema: packageFile("schema.json") }, host);
  return { provider, grpc: grpcHandlers(provider) };
}

/** A value in the engine's secret wrapper, as the engine sends a secret input or setting over gRPC. */
export const engineSecret = (value: unknown) => ({
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  value,
});

/** A fresh plugin configured as the engine configures one for an account: its base URL, its token a secret. */
export async function configuredPlugin(baseUrl: string, token: string): Promise<InProcessPlugin> {
  const plugin = inProcessPlugin();
  await callUnary(
    plugin.grpc.configure,
    new ConfigureRequest()
      .setArgs(Struct.fromJavaScript({ baseUrl, token: engineSecret(token) }))
      .setType("pulumi:providers:voiceagent"),
  );
  return plugin;
}

/** How a gRPC handler failed: the status the engine would read. */
export interface CallFailure {
  code?: number;
  details?: string;
  metadata?: Metadata;
}

/** One unary handler called as the server calls it; rejects with the {@link CallFailure} it answered. */
export function callUnary<Req, Res>(handler: handleUnaryCall<Req, Res>, request: Req): Promise<Res> {
  return new Promise((resolve, reject) => {
    // The handlers read `call.request` only.
    const call = { request } as Parameters<handleUnaryCall<Req, Res>>[0];
    handler(call, (err, res) => {
      if (err)
        reject({ code: err.code, details: err.details, metadata: err.metadata ?? undefined } satisfies CallFailure);
      else if (res === null || res === undefined) reject(new Error("the handler answered nothing"));
      else resolve(res);
    });
  });
}

/** Unsets every VOICEAGENT_* variable of the test process, so each test says which settings it gives (undo with vi.unstubAllEnvs). */
export function withoutVoiceagentEnv(): void {
  for (const key of Object.keys(process.env)) if (key.startsWith("VOICEAGENT_")) vi.stubEnv(key, "");
}
