/**
 * Notes for the user that are not errors: "forgotten, the service has no delete", "left bound".
 * The dynamic provider's host shows its stderr to the user, so that is where they go by default.
 * The native plugin's stderr is only debug-logged by the engine, so it installs a sink that sends
 * each note through the engine's Log RPC, attached to the resource it concerns.
 */

import { onPaceWait, paceNote } from "../../client/pace.js";

/** Receives one note (one line, no trailing newline). */
export type NoteSink = (text: string) => void;

const toStderr: NoteSink = (text) => {
  process.stderr.write(`${text}\n`);
};

let sink: NoteSink = toStderr;

/** Tells the user something that did not fail but that they should know. */
export function note(text: string): void {
  sink(text);
}

/** Replaces where notes go (the native plugin's engine log); `undefined` restores stderr. */
export function setNoteSink(next: NoteSink | undefined): void {
  sink = next ?? toStderr;
}

// The client paces itself once the service has answered 429 (client/pace.ts): the user hears when
// their requests wait on the service's rate limit, not only that the run was slow.
onPaceWait((event) => note(paceNote(event)));
