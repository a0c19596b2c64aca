import type { z } from "zod";
import { diffOf } from "../derive.js";
import type { KindDiffRequest } from "../requests.js";
import { diffKind, type KindDiff } from "../results.js";
import { isUnsettled, UNSETTLED_OUTPUT } from "../unsettled.js";
import type { KindParts } from "./kind-parts.js";

/** Diff: what changes, by the fields' flags, and whether it replaces; an unsettled create always changes. */
export function kindDiffOf<S extends z.ZodRawShape, R extends { id: string }, W>({
  def,
}: KindParts<S, R, W>): (req: KindDiffRequest) => Promise<KindDiff> {
  return async ({ id, olds, news }) => {
    const d = diffOf(def, olds, news, id);
    // A create not settled yet is always a change, and no replacement (which would make another
    // object beside the one it may have made): its update sends nothing and says what settles it.
    // Except when the program adopts an object by its id: that replacement makes nothing, and the
    // delete after it settles the old one (a number the program declares is never cancelled).
    if (isUnsettled(id)) {
      const adopting = def.adopt !== undefined && news[def.adopt] !== undefined && news[def.adopt] !== "";
      const replaces: string[] = adopting && def.adopt ? [def.adopt] : [];
      return {
        detailed: {
          ...Object.fromEntries(d.changed.map((p) => [p, diffKind(olds[p], news[p], replaces.includes(p))])),
          [UNSETTLED_OUTPUT]: diffKind(olds[UNSETTLED_OUTPUT], undefined, false),
        },
        replaces,
        deleteBeforeReplace: false,
      };
    }
    const replaces = new Set(d.replaces);
    return {
      detailed: Object.fromEntries(d.changed.map((p) => [p, diffKind(olds[p], news[p], replaces.has(p))])),
      replaces: d.replaces,
      deleteBeforeReplace: d.replaces.length > 0 && def.deleteBeforeReplace === true,
    };
  };
}
