// A resource plugin's stdout (after the port line) and stderr reach the user only as debug logs
// (pkg/resource/plugin/plugin.go `unstructuredOutput` in pulumi v3.274.1: hidden for every
// resource plugin but the dynamic hosts). What the user must see goes through the engine's Log
// RPC (sent by plugin/grpc.ts), with the URN of the resource the request is about, so it shows
// under that resource: each request's scope (kit/scope.ts) tells its notes with its URN and waits
// for them before answering, so a note is shown before the step that caused it completes and is
// never lost to the process exiting.

/** Sends one note to the engine's log under a URN ("" for none); resolves when done, whatever the outcome. */
export type LogNote = (text: string, urn: string) => Promise<void>;
