import type { Host } from "../../host.js";
import type { Autonaming } from "./autoname.js";
import type { Props } from "./kind.js";
import type { ProviderSettings } from "./settings.js";

// What a kind's runtime is asked, as plain objects: the same field names as the plain provider's
// requests (plugin/protocol.ts), less what only the plugin reads (the type token, the preview
// flag, the timeout), plus the host the request runs in and the provider's settings. Like the
// context pulumi-go-provider passes down with each request, the host is named, never looked up.
// The dynamic provider's positional calls (kit/dynamic.ts) become these at its edge.

/** What every request to a kind's runtime carries. */
export interface KindRequest {
  /** The process's host (provider/host.ts): its clients, create ledgers, claims, notes. */
  host: Host;
  /** The provider's settings; undefined, or holding unknowns, in a preview configured from outputs. */
  settings: ProviderSettings | undefined;
}

/** Check: the recorded inputs and the program's new ones. */
export interface KindCheckRequest extends KindRequest {
  olds: Props;
  news: Props;
  /** The resource's URN, where the caller knows it (the native plugin), for inputs one resource only may hold. */
  urn?: string | undefined;
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
