import type { ApiGeneration } from "../../client/index.js";
import { inputFailure, type CheckFailure } from "./check.js";
import type { FieldInfo } from "./kind.js";

// The generation a property needs is said once, on its field (`since`): the check that refuses it
// on an older generation, and the list of a kind's properties only a newer one has, derive from it.

/** The generations in the order the service gained them. */
const ORDER: readonly ApiGeneration[] = ["2023", "2024"];

/** The properties of `fields` the generation `gen` lacks (each field's `since` is newer), in declaration order. */
export function lackedBy(fields: Readonly<Record<string, Pick<FieldInfo, "since">>>, gen: ApiGeneration): string[] {
  return Object.entries(fields)
    .filter(([, f]) => f.since !== undefined && ORDER.indexOf(f.since) > ORDER.indexOf(gen))
    .map(([name]) => name);
}

/** Whether any property of `fields` needs a generation newer than the oldest. */
export function hasSince(fields: Readonly<Record<string, Pick<FieldInfo, "since">>>): boolean {
  return Object.values(fields).some((f) => f.since !== undefined);
}

/**
 * What the generation `gen` cannot take of the program's inputs `news`: the properties it lacks
 * that the program sets, named in one failure (said at preview, before anything is sent).
 */
export function generationLacks(
  kind: string,
  fields: Readonly<Record<string, Pick<FieldInfo, "since">>>,
  gen: ApiGeneration,
  news: Readonly<Record<string, unknown>>,
): CheckFailure[] {
  const set = lackedBy(fields, gen).filter((k) => news[k] !== undefined);
  if (!set.length) return [];
  return [
    inputFailure(
      `${set.join(", ")}: ${set.length > 1 ? "these need" : "it needs"} the current API (2024), and the service ` +
        `speaks the ${gen} interface, which has no such ${kind.toLowerCase()} field` +
        " (remove them, or set voiceagent:api 2024 if the service speaks the current API)",
    ),
  ];
}
