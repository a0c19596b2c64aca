import type { Props } from "../resources/kit/kind.js";

// The engine applies a resource's `ignoreChanges` to the program's inputs before Check: each
// ignored path takes the recorded *input* (pkg/resource/deploy/step_generator.go
// `processIgnoreChanges`, pulumi v3.259.0), and it sends the paths with Diff
// (DiffRequest.ignoreChanges). This provider's diff compares the program's inputs with the
// recorded *outputs*, as the service holds them: a nested value the service normalises (a
// config key's spelling, a list's order) would still differ there. So Diff puts the recorded
// output at each ignored path before comparing, and an ignored path never shows as a change.

/** One step of a property path: a key, an index, or `*` (every key or element). */
type PathStep = string | number;

/**
 * A property path as the engine writes it (sdk/go/common/resource/properties_path.go
 * `ParsePropertyPath`): `a.b`, `a[0]`, `a["b.c"]`, `a[*]`, `a.*`; undefined when it cannot be read.
 */
export function parsePath(path: string): PathStep[] | undefined {
  const steps: PathStep[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === "[") {
      const end = path.indexOf("]", i);
      if (end < 0) return undefined;
      const inner = path.slice(i + 1, end);
      if (inner.startsWith('"')) {
        // A quoted key may hold "]" and ".": read it as JSON up to its closing quote.
        const close = path.indexOf('"]', i + 2);
        if (close < 0) return undefined;
        steps.push(JSON.parse(path.slice(i + 1, close + 1)) as string);
        i = close + 2;
        continue;
      }
      if (inner === "*") steps.push("*");
      else if (/^\d+$/.test(inner)) steps.push(Number(inner));
      else return undefined;
      i = end + 1;
    } else {
      if (path[i] === ".") i += 1;
      let j = i;
      while (j < path.length && path[j] !== "." && path[j] !== "[") j += 1;
      if (j === i) return undefined;
      steps.push(path.slice(i, j));
      i = j;
    }
  }
  return steps.length ? steps : undefined;
}

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
