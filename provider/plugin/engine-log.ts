import { AsyncLocalStorage } from "node:async_hooks";
import { credentials } from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb.js";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb.js";
import type { NoteSink } from "../resources/kit/notes.js";

// A resource plugin's stdout (after the port line) and stderr reach the user only as debug logs
// (pkg/resource/plugin/plugin.go `unstructuredOutput` in pulumi v3.259.0: hidden for every
// resource plugin but the dynamic hosts). What the user must see goes through the engine's Log
// RPC, with the URN of the resource the request is about, so it shows under that resource.

/** What one provider request is about, and the notes it has sent that are still in flight. */
interface RequestScope {
  urn: string;
  pending: Promise<void>[];
}

const scope = new AsyncLocalStorage<RequestScope>();

/**
 * Runs one provider request with its URN in scope; waits for every note it logged before
 * answering, so a note is shown before the step that caused it completes and is never lost to
 * the process exiting.
 */
export async function inRequest<T>(urn: string, work: () => Promise<T>): Promise<T> {
  const s: RequestScope = { urn, pending: [] };
  try {
    return await scope.run(s, work);
  } finally {
    await Promise.all(s.pending);
  }
}

/** A note sink that logs each note at INFO through the engine at `address` (falls back to stderr). */
export function engineNoteSink(address: string): NoteSink {
  const client = new EngineClient(address, credentials.createInsecure());
  return (text) => {
    const s = scope.getStore();
    const req = new LogRequest().setSeverity(LogSeverity.INFO).setMessage(text).setUrn(s?.urn ?? "");
    const sent = new Promise<void>((resolve) => {
      client.log(req, (err) => {
        // The engine is gone or refused it: stderr at least ends up in the engine's debug log.
        if (err) process.stderr.write(`${text}\n`);
        resolve();
      });
    });
    s?.pending.push(sent);
  };
}
