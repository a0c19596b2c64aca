import type { Props } from "../resources/kit/kind.js";
import { parsePath, type PathStep } from "./property-path.js";

// The engine applies a resource's `ignoreChanges` to the program's inputs before Check: each
// ignored path takes the recorded *input* (pkg/resource/deploy/step_generator.go
// `processIgnoreChanges`, pulumi v3.259.0 to v3.274.1), and it sends the paths with Diff
// (DiffRequest.ignoreChanges). This provider's diff compares the program's inputs with the
// recorded *outputs*, as the service holds them: a nested value the service normalises (a
// config key's spelling, a list's order) would still differ there. So Diff puts the recorded
// output at each ignored path before comparing, and an ignored path never shows as a change.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `into` (a copy) with the value at `steps` taken from `from`, or removed where `from` has none. */
function take(into: unknown, from: unknown, steps: readonly PathStep[]): unknown {
  const [step, ...rest] = steps;
  if (step === undefined) return from;
  if (Array.isArray(into)) {
    const out = [...into];
    const at = step === "*" ? out.map((_, k) => k) : typeof step === "number" ? [step] : [];
    for (const k of at) {
      if (k >= out.length) continue;
      out[k] = take(out[k], Array.isArray(from) ? from[k] : undefined, rest);
    }
    return out;
  }
  if (isObject(into)) {
    const out: Record<string, unknown> = { ...into };
    const source = isObject(from) ? from : {};
    const keys = step === "*" ? [...new Set([...Object.keys(out), ...Object.keys(source)])] : [String(step)];
    for (const key of keys) {
      const value = rest.length === 0 ? source[key] : take(out[key], source[key], rest);
      if (value === undefined) delete out[key];
      else out[key] = value;
    }
    return out;
  }
  // Nothing at this path in the program's inputs: nothing to ignore below it.
  return into;
}

/** The program's inputs with each ignored path holding the recorded output instead (paths it cannot read are left alone). */
export function withIgnored(paths: readonly string[], outputs: Props, news: Props): Props {
  let out: unknown = news;
  for (const path of paths) {
    const steps = parsePath(path);
    if (steps) out = take(out, outputs, steps);
  }
  return isObject(out) ? out : news;
}
