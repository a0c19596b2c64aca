import { ApiError } from "../../client/index.js";
import { ExplainedError, explain } from "../kit/errors.js";
import { secretPaths, type RegisteredFunction, type SecretPath } from "../kit/function.js";
import type { Props } from "../kit/kind.js";
import type { KindRequest } from "../kit/requests.js";
import { FUNCTIONS } from "./index.js";

// Running a function, the same way on both paths: the plugin's Invoke and the dynamic entry's plain
// functions. Arguments are checked before anything is sent; only reads are ever sent.

/**
 * An argument a function refused. Unlike a resource's CheckFailure it names the argument in
 * `property`: the engine passes an invoke's failures to the SDK, which prints property and reason,
 * never the argument's value.
 */
export interface InvokeFailure {
  property: string;
  reason: string;
}

/** A function to run: its name and arguments, in the request's scope (its host, the provider's configuration). */
export interface FunctionRequest extends KindRequest {
  name: string;
  args: Props;
}

/** What a function answered: its result, or why its arguments were refused (nothing was sent). */
export type InvokeOutcome = { result: Props; failures?: undefined } | { result?: undefined; failures: InvokeFailure[] };

const byName: ReadonlyMap<string, RegisteredFunction> = new Map(FUNCTIONS.map((f) => [f.name, f]));
/** Where each function's result holds secrets, from its declaration: built at load, never changed. */
const secrets: ReadonlyMap<string, readonly SecretPath[]> = new Map(
  FUNCTIONS.map((f) => [f.name, secretPaths(f.info.result)]),
);

/** The names of the functions this release serves. */
export const FUNCTION_NAMES: readonly string[] = [...byName.keys()];

/** Where a function's result holds secrets (from its declaration). */
export function secretPathsOf(name: string): readonly SecretPath[] {
  return secrets.get(name) ?? [];
}

/** The argument problems of a call, each naming the argument; unknown arguments are refused (a typo would be ignored). */
function argumentFailures(name: string, args: Props): { parsed?: Props; failures: InvokeFailure[] } {
  const fn = byName.get(name);
  if (!fn) return { failures: [] };
  const known = Object.keys(fn.info.input.shape);
  const failures: InvokeFailure[] = Object.keys(args)
    .filter((k) => !known.includes(k) && args[k] !== undefined && args[k] !== null)
    .map((k) => ({
      property: k,
      reason: `${name}: unknown argument "${k}"; expected ${known.length ? `one of: ${known.join(", ")}` : "none"}`,
    }));
  // SDKs send an unset optional argument as null or leave it out: both mean unset.
  const given = Object.fromEntries(
    Object.entries(args).filter(([k, v]) => known.includes(k) && v !== null && v !== undefined),
  );
  const parsed = fn.info.input.safeParse(given);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      const property = typeof key === "string" ? key : "";
      failures.push({ property, reason: `${name}: ${property ? `${property} ` : ""}${issue.message}` });
    }
  }
  return failures.length ? { failures } : { parsed: given, failures };
}

/**
 * Runs function `name` with the provider's settings. Throws when the name is not a function of
 * this release, when the settings are not usable, and when the read fails (the message names what
 * was looked up and says nothing was changed). A failure of the service is worded as a resource's
 * is (kit/errors.ts explain: the same advice, the token's config key included) and keeps its code.
 */
export async function invokeFunction({ scope, name, args }: FunctionRequest): Promise<InvokeOutcome> {
  const fn = byName.get(name);
  if (!fn)
    throw new ExplainedError(
      `${name} is not a function this release serves (it serves ${FUNCTION_NAMES.join(", ")}); nothing was sent to the service`,
      { code: "E_UNKNOWN_FUNCTION", mayHaveActed: false },
    );
  const { parsed, failures } = argumentFailures(name, args);
  if (!parsed) return { failures };
  try {
    return { result: await fn.run(scope.client(), parsed) };
  } catch (err) {
    // The lookups' own messages (read.ts: "found no voice named ...") are already worded.
    throw err instanceof ApiError ? explain({ kind: name, op: "invoke" }, err) : err;
  }
}
