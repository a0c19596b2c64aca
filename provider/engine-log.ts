// A resource plugin's stdout (after the port line) and stderr reach the user only as debug logs
// (pkg/resource/plugin/plugin.go `unstructuredOutput` in pulumi v3.274.1: hidden for every
// resource plugin but the dynamic hosts). What the user must see goes through the engine's Log
// RPC, with the URN of the resource the request is about, so it shows under that resource: each
// request's scope (kit/scope.ts) tells its notes with its URN and waits for them before answering,
// so a note is shown before the step that caused it completes and is never lost to the process
// exiting. Both processes the engine starts for this package use it: the plugin (plugin/main.ts)
// and the dynamic-provider host (dynamic/dynamic-host.ts, for a partial create). So it sits above
// both entries, not in the plugin, and only these loads pay for protobuf: the dynamic host imports
// it lazily, on a failing create. Each caller hands in the channel's credentials, made by the
// grpc-js that process has: the plugin bundles its own, while the dynamic host has only the one
// @pulumi/pulumi depends on (no dependency of this package: a strict layout such as pnpm's would not
// find it from here), and the generated EngineClient takes credentials only from its own grpc-js.
import type { ChannelCredentials } from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb.js";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb.js";

/** Sends one note to the engine's log under a URN ("" for none); resolves when done, whatever the outcome. */
export type LogNote = (text: string, urn: string) => Promise<void>;

/**
 * Shows an error under a resource through the engine's log; resolves whether the engine took it
 * (false without an engine: nothing was shown).
 */
export type EngineError = (text: string, urn: string) => Promise<boolean>;

/**
 * Sends notes at INFO through the engine's Log RPC at `address` (`channel`: insecure credentials, as
 * the engine listens); one the engine refuses goes to stderr (the engine's debug log).
 */
export function engineLog(address: string, channel: ChannelCredentials): LogNote {
  const show = engineErrors(address, channel, LogSeverity.INFO);
  return async (text, urn) => {
    await show(text, urn);
  };
}

/** Shows errors (or, given `severity`, notes) through the engine's Log RPC at `address`; one the engine refuses goes to stderr. */
export function engineErrors(address: string, channel: ChannelCredentials, severity = LogSeverity.ERROR): EngineError {
  const client = new EngineClient(address, channel);
  return (text, urn) =>
    new Promise<boolean>((resolve) => {
      client.log(new LogRequest().setSeverity(severity).setMessage(text).setUrn(urn), (err) => {
        if (err) process.stderr.write(`${text}\n`);
        resolve(!err);
      });
    });
}
