import type { z } from "zod";
import { containsUnknown } from "./unknown.js";

/** One input problem, as Pulumi shows it at preview: the property and why. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** What `check` returns: inputs with defaults applied, or the failures. */
export interface CheckOutcome<T> {
  inputs: T;
  failures: CheckFailure[];
}

/**
 * Validates each input against its field schema before any request is made. A value unknown
 * during preview is passed through untouched; defaults are applied to the rest; keys that are
 * not declared are refused (a typo would otherwise be silently ignored).
 */
export function checkInputs<S extends z.ZodRawShape>(
  shape: S,
  news: Record<string, unknown>,
  refine?: (inputs: Record<string, unknown>) => CheckFailure[],
): CheckOutcome<Record<string, unknown>> {
  const inputs: Record<string, unknown> = {};
  const failures: CheckFailure[] = [];
  for (const key of Object.keys(news)) {
    if (key !== "__provider" && !(key in shape)) {
      failures.push({ property: key, reason: `unknown property "${key}"; expected one of: ${Object.keys(shape).join(", ")}` });
    }
  }
  for (const [key, schema] of Object.entries(shape)) {
    const value = news[key];
    if (containsUnknown(value)) {
      inputs[key] = value;
      continue;
    }
    const parsed = (schema as z.ZodType).safeParse(value);
    if (parsed.success) {
      if (parsed.data !== undefined) inputs[key] = parsed.data;
    } else {
      for (const issue of parsed.error.issues) {
        const at = issue.path.length ? `${key}${issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}` : key;
        const reason = value === undefined ? `${key} is required` : `${at} ${issue.message}`;
        failures.push({ property: key, reason });
      }
    }
  }
  if (failures.length === 0 && refine) failures.push(...refine(inputs));
  return { inputs, failures };
}
