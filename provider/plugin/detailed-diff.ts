import type { Props } from "../resources/kit/kind.js";
import type { KindDiff } from "../resources/kit/results.js";
import type { DiffResponse, PropertyChange } from "./protocol.js";

/**
 * The Diff response from the kind's own diff (which properties differ and how, by the kind's
 * comparison: defaults, sets, "" as unset, inert properties; the plugin has no per-kind code):
 * each property compared with the recorded outputs (as the dynamic path does), not the old
 * inputs; `stables` for the inputs that stay as they are. The dynamic provider a migrated stack
 * still records is the middleware's (plugin/from-dynamic.ts).
 */
export function diffResponse(d: KindDiff, news: Props): DiffResponse {
  const detailed: Record<string, PropertyChange> = {};
  for (const [key, kind] of Object.entries(d.detailed)) detailed[key] = { kind, inputDiff: false };
  const changed = Object.keys(d.detailed);
  return {
    changes: Object.keys(detailed).length > 0 || d.replaces.length > 0,
    detailed,
    replaces: [...new Set(d.replaces)],
    stables: Object.keys(news).filter((k) => !changed.includes(k)),
    deleteBeforeReplace: d.deleteBeforeReplace && d.replaces.length > 0,
  };
}

/**
 * The DiffConfig response: the settings that changed, each an ADD, DELETE or UPDATE of an input.
 * Never a replacement: a new token or URL addresses the same objects (or fails at Check).
 */
export function configDiff(olds: Props, news: Props, changed: readonly string[]): DiffResponse {
  const detailed: Record<string, PropertyChange> = {};
  for (const key of changed)
    detailed[key] = {
      kind: olds[key] === undefined ? "add" : news[key] === undefined ? "delete" : "update",
      inputDiff: true,
    };
  return { changes: changed.length > 0, detailed, replaces: [], stables: [], deleteBeforeReplace: false };
}
