import { containsUnknown } from "./unknown.js";

/** The result of a field-aware diff. */
export interface FieldDiff {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace?: boolean;
  /** The properties that differ (for messages and tests). */
  changed: string[];
}

/** How to compare one resource kind: which fields, how to normalize them, which replace. */
export interface DiffRules {
  fields: readonly string[];
  /** Fields whose change cannot be applied in place. */
  replaceOn: readonly string[];
  /** Maps each side to comparable values: defaults filled, ids from embedded objects, sets sorted. */
  normalize: (props: Record<string, unknown>) => Record<string, unknown>;
  deleteBeforeReplace?: boolean;
  /** When true, any change replaces. */
  replaceOnAnyChange?: boolean;
}

/**
 * Compares recorded state (`olds`: what create/update/read returned) with the program's inputs.
 * An unknown input counts as changed, so preview shows a possible update or replacement.
 */
export function diffFields(rules: DiffRules, olds: Record<string, unknown>, news: Record<string, unknown>): FieldDiff {
  const a = rules.normalize(olds);
  const b = rules.normalize(news);
  const changed = rules.fields.filter((f) => containsUnknown(news[f]) || !same(a[f], b[f]));
  const replaces = rules.replaceOnAnyChange ? changed : changed.filter((f) => rules.replaceOn.includes(f));
  return {
    changes: changed.length > 0,
    replaces,
    changed,
    ...(replaces.length && rules.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
  };
}

function same(x: unknown, y: unknown): boolean {
  return JSON.stringify(canonical(x)) === JSON.stringify(canonical(y));
}

function canonical(v: unknown): unknown {
  if (v === null || v === undefined || v === "") return null;
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined && x !== null)
        .sort(([k1], [k2]) => k1.localeCompare(k2))
        .map(([k, x]) => [k, canonical(x)]),
    );
  }
  return v;
}
