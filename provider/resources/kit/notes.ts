/**
 * Notes for the user that are not errors: "forgotten, the service has no delete", "left bound".
 * They go where the current host's edge sends them (provider/host.ts): the dynamic provider's host
 * shows its stderr to the user, so that is the default; the native plugin's stderr is only
 * debug-logged by the engine, so its host sends each note through the engine's Log RPC, attached
 * to the resource it concerns.
 */

import { currentHost } from "../../host.js";

export type { NoteSink } from "../../host.js";

/** Tells the user something that did not fail but that they should know. */
export function note(text: string): void {
  currentHost().note(text);
}
