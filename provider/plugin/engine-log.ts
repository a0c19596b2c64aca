import { AsyncLocalStorage } from "node:async_hooks";
import type { NoteSink } from "../host.js";

// A resource plugin's stdout (after the port line) and stderr reach the user only as debug logs
// (pkg/resource/plugin/plugin.go `unstructuredOutput` in pulumi v3.274.1: hidden for every
// resource plugin but the dynamic hosts). What the user must see goes through the engine's Log
// RPC (sent by plugin/grpc.ts), with the URN of the resource the request is about, so it shows
// under that resource.

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

/** Sends one note to the engine's log under a URN ("" for none); resolves when done, whatever the outcome. */
export type LogNote = (text: string, urn: string) => Promise<void>;

/** A note sink that sends each note with the URN of the request in scope, and makes that request wait for it. */
export function scopedNoteSink(send: LogNote): NoteSink {
  return (text) => {
    const s = scope.getStore();
    const sent = send(text, s?.urn ?? "");
    s?.pending.push(sent);
  };
}
