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

/** `model_name` → `modelName`: the key a snake_case spelling (a Python dict's) stands for. */
const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/**
 * A nested input object that takes only its own keys (an agent's `llmFallback`, a prompt's
 * collected field): a misspelt key fails the check, named with its path and the keys there are,
 * rather than being dropped (its value then missing, or silently not sent). A snake_case key is
 * told its camelCase spelling: the SDKs translate the keys of their declared types, but a program
 * that builds the object untyped (a plain dict where Python's SDK does not know the type) may not.
 */
export function closedObject<S extends z.ZodRawShape>(shape: S): z.ZodObject<S, z.core.$strict> {
  const keys = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return undefined;
      const named = issue.keys.map((k) => {
        const meant = camel(k);
        return meant !== k && keys.includes(meant) ? `"${k}" (write ${meant})` : `"${k}"`;
      });
      return `has no key ${named.join(", ")}: its keys are ${keys.join(", ")}`;
    },
  });
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
