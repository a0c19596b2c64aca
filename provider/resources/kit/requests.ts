import type { Autonaming } from "./autoname.js";
import type { Props } from "./kind.js";
import type { RequestScope } from "./scope.js";

// What a kind's runtime is asked, as plain objects: the same field names as the plain provider's
// requests (plugin/protocol.ts), less what only the plugin reads (the type token, the preview
// flag), plus the request's scope (kit/scope.ts: the host, the configured client, the URN, the
// budget, the notes). Like the context pulumi-go-provider passes down with each request, it is
// named, never looked up.
// The dynamic provider's positional calls (dynamic/adapter.ts) become these at its edge.

/** What every request to a kind's runtime carries. */
export interface KindRequest {
  /** What the request runs with: the process's host, the configured client, the URN, the budget, the notes (kit/scope.ts). */
  scope: RequestScope;
}

/** Check: the recorded inputs and the program's new ones. */
export interface KindCheckRequest extends KindRequest {
  olds: Props;
  news: Props;
  /** The logical name, and what the engine asked of the name (native only), for a kind with a display name (kit/autoname.ts). */
  autonaming?: Autonaming | undefined;
}

/** Diff: the recorded outputs and the program's new inputs. */
export interface KindDiffRequest extends KindRequest {
  id: string;
  olds: Props;
  news: Props;
}

/** Create: the checked inputs. */
export interface KindCreateRequest extends KindRequest {
  properties: Props;
}

/** Read (refresh, or an import when `properties` is empty): the recorded outputs. */
export interface KindReadRequest extends KindRequest {
  id: string;
  properties: Props;
}

/** Update: the recorded outputs and the program's new inputs. */
export interface KindUpdateRequest extends KindRequest {
  id: string;
  olds: Props;
  news: Props;
}

/** Delete: the recorded outputs. */
export interface KindDeleteRequest extends KindRequest {
  id: string;
  properties: Props;
}
