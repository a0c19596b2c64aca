import { z } from "zod";
import { type CheckFailure, inputFailure } from "./failure.js";
import { containsUnknown } from "./unknown.js";

export { type CheckFailure, inputFailure, NOTHING_SENT } from "./failure.js";

/** What `check` returns: inputs with defaults applied, or the failures. */
export interface CheckOutcome {
  inputs: Record<string, unknown>;
  /** The properties whose values are known (unknowns at preview are left out), for cross-field rules. */
  known: Record<string, unknown>;
  failures: CheckFailure[];
}

/**
 * Validates each input against its property schema before any request is made. A value unknown
 * during preview is passed through untouched; defaults are applied to the rest; keys that are
 * not declared are refused (a typo would otherwise be silently ignored). Reasons name the
 * property and never repeat its value (it may be a secret); no failure names a property to the
 * engine, which would print its value.
 */
export function checkInputs<S extends z.ZodRawShape>(
  input: z.ZodObject<S>,
  news: Record<string, unknown>,
): CheckOutcome {
  const shape = input.shape;
  const inputs: Record<string, unknown> = {};
  const known: Record<string, unknown> = {};
  const failures: CheckFailure[] = [];
  for (const key of Object.keys(news)) {
    if (!(key in shape)) {
      failures.push(inputFailure(`unknown property "${key}"; expected one of: ${Object.keys(shape).join(", ")}`));
    }
  }
  for (const [key, schema] of Object.entries(shape)) {
    const value = news[key];
    if (containsUnknown(value)) {
      inputs[key] = value;
      continue;
    }
    const parsed = z.safeParse(schema, value);
    if (parsed.success) {
      if (parsed.data !== undefined) {
        inputs[key] = parsed.data;
        known[key] = parsed.data;
      }
    } else {
      for (const issue of parsed.error.issues) {
        const at = issue.path.length
          ? `${key}${issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}`
          : key;
        const reason = value === undefined ? `${key} is required` : `${at} ${issue.message}`;
        failures.push(inputFailure(reason));
      }
    }
  }
  return { inputs, known, failures };
}
