import { z } from "zod";
import { NOTHING_SENT } from "./nothing-sent.js";
import { containsUnknown } from "./unknown.js";

/**
 * One input problem, as Pulumi shows it at preview. `property` is always "": given a property,
 * the engine prints that property's value beside the reason, secret or not (issueCheckFailures in
 * pkg/resource/deploy/step_generator.go, pulumi v3.259.0: `property %v value %v has a problem`).
 * So the reason names the field, and no value ever reaches the output.
 */
export interface CheckFailure {
  property: "";
  reason: string;
}

export { NOTHING_SENT } from "./nothing-sent.js";

/**
 * A failure whose reason names the field (never `property`: see CheckFailure) and says that
 * nothing was sent: every check runs before any request.
 */
export function inputFailure(reason: string): CheckFailure {
  return { property: "", reason: `${reason}; ${NOTHING_SENT}` };
}

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
