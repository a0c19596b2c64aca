// A property path as the engine writes one (ignoreChanges, and the secret paths the schema gives):
// read by Diff (plugin/ignore-changes.ts) and by the edge that marks nested secrets (plugin/grpc.ts).

/** One step of a property path: a key, an index, or `*` (every key or element). */
export type PathStep = string | number;

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
