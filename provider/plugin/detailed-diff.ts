import { DiffResponse, PropertyDiff } from "@pulumi/pulumi/proto/provider_pb.js";
import type { Props } from "../resources/kit/kind.js";
import type { KindRuntime } from "../resources/kit/runtime.js";
import type { ProviderSettings } from "../resources/kit/settings.js";
import { withoutProvider } from "./wire.js";

/** A diff as the engine wants it: which properties change, how, and whether that replaces. */
export interface Detailed {
  changed: string[];
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** The recorded state holds a dynamic provider's `__provider` (a stack migrated from it). */
  dropsProvider: boolean;
}

/**
 * Which properties differ, by the kind's own comparison (defaults, sets, "" as unset, inert
 * properties), learned from the runtime alone so the plugin has no per-kind code: the recorded
 * state with one property set to the program's value differs exactly when that property does.
 * Each probe is the kit's pure comparison; nothing is sent.
 */
export async function detailedDiff(rt: KindRuntime, settings: ProviderSettings | undefined, id: string, olds: Props, oldInputs: Props, news: Props): Promise<Detailed> {
  const state = withoutProvider(olds);
  const whole = await rt.diff(settings, id, state, news);
  const changed: string[] = [];
  if (whole.changes) {
    const keys = new Set([...Object.keys(news), ...Object.keys(withoutProvider(oldInputs))]);
    for (const key of keys) {
      const probe: Props = { ...state };
      if (news[key] === undefined) delete probe[key];
      else probe[key] = news[key];
      if ((await rt.diff(settings, id, state, probe)).changes) changed.push(key);
    }
  }
  return {
    changed,
    replaces: whole.replaces ?? [],
    deleteBeforeReplace: whole.deleteBeforeReplace === true,
    dropsProvider: "__provider" in olds || "__provider" in oldInputs,
  };
}

/**
 * The Diff response: DIFF_SOME with a detailed diff (each property an ADD, DELETE or UPDATE, the
 * replacing ones as *_REPLACE), `stables` for the inputs that stay as they are, and a recorded
 * `__provider` as a DELETE that never replaces: otherwise a migrated resource would be a Same
 * step, which copies the old outputs, and the serialized provider would stay in state forever
 * (pkg/resource/deploy/step_generator.go in pulumi v3.259.0).
 */
export function diffResponse(d: Detailed, olds: Props, news: Props): DiffResponse {
  const resp = new DiffResponse();
  const replaces = new Set(d.replaces);
  const details = resp.getDetaileddiffMap();
  for (const key of d.changed) {
    const replace = replaces.has(key);
    const kind =
      olds[key] === undefined
        ? replace ? PropertyDiff.Kind.ADD_REPLACE : PropertyDiff.Kind.ADD
        : news[key] === undefined
          ? replace ? PropertyDiff.Kind.DELETE_REPLACE : PropertyDiff.Kind.DELETE
          : replace ? PropertyDiff.Kind.UPDATE_REPLACE : PropertyDiff.Kind.UPDATE;
    // Compared with the recorded outputs (as the dynamic path does), not the old inputs.
    details.set(key, new PropertyDiff().setKind(kind).setInputdiff(false));
  }
  const diffs = [...d.changed];
  if (d.dropsProvider) {
    details.set("__provider", new PropertyDiff().setKind(PropertyDiff.Kind.DELETE).setInputdiff(false));
    diffs.push("__provider");
  }
  const some = diffs.length > 0 || replaces.size > 0;
  resp.setChanges(some ? DiffResponse.DiffChanges.DIFF_SOME : DiffResponse.DiffChanges.DIFF_NONE);
  resp.setDiffsList(diffs);
  resp.setReplacesList([...replaces]);
  resp.setStablesList(Object.keys(news).filter((k) => !d.changed.includes(k)));
  resp.setDeletebeforereplace(d.deleteBeforeReplace && replaces.size > 0);
  resp.setHasdetaileddiff(true);
  return resp;
}
