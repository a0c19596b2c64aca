// The names of a pulled program: each kind's base name of an object is its own (the kinds' \`pull\`),
// re-exported here; this module makes them unique and turns them into variables.
export { slug } from "../resources/kit/pull.js";
export { actionBaseName } from "../resources/kinds/action.js";
export { agentBaseName } from "../resources/kinds/agent.js";
export { numberBaseName } from "../resources/kinds/phone-number.js";
export { voiceBaseName } from "../resources/kinds/voice.js";
export { webhookBaseName } from "../resources/kinds/webhook.js";

/**
 * Unique names for objects of one kind. Objects whose base names collide all get a suffix from
 * their id (8 characters, longer if needed), so the result depends only on the set of objects,
 * never on the order they were listed in, and an object keeps its name while nothing collides.
 */
export function uniqueNames(objects: readonly { id: string; base: string }[]): Map<string, string> {
  const suffixLen = new Map(objects.map((o) => [o.id, 0]));
  const nameOf = (o: { id: string; base: string }) => {
    const n = suffixLen.get(o.id) ?? 0;
    return n === 0 ? o.base : `${o.base}-${o.id.replace(/-/g, "").slice(0, n).toLowerCase()}`;
  };
  for (;;) {
    const byName = new Map<string, { id: string; base: string }[]>();
    for (const o of objects) byName.set(nameOf(o), [...(byName.get(nameOf(o)) ?? []), o]);
    const clashing = [...byName.values()].filter((g) => g.length > 1).flat();
    const growable = clashing.filter((o) => (suffixLen.get(o.id) ?? 0) < o.id.replace(/-/g, "").length);
    if (growable.length === 0) break;
    for (const o of growable) {
      const n = suffixLen.get(o.id) ?? 0;
      suffixLen.set(o.id, n === 0 ? 8 : n + 4);
    }
  }
  return new Map(objects.map((o) => [o.id, nameOf(o)]));
}

/** Words a variable may not be named: reserved in strict mode or TypeScript, or names the program uses. */
const RESERVED: ReadonlySet<string> = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await arguments eval as any async " +
    "declare from get is keyof module namespace never of readonly require set symbol type undefined unique unknown " +
    "exports process console global globalThis Object Array String Number Boolean Promise Error JSON Math Date " +
    "NaN Infinity va pulumi"
  ).split(" "),
);

/** camelCase of a dashed name: `support-line-2` → `supportLine2`; empty when nothing is left. */
export function camel(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()))
    .join("");
}

/**
 * Gives each resource a variable name unique in the program: the camelCase of its resource name,
 * with the kind appended when that is reserved, taken, or starts with a digit, and a number after
 * that if still taken. Call in a fixed order for a deterministic result.
 */
export function variableNamer(): (name: string, kind: string) => string {
  const taken = new Set<string>();
  return (name, kind) => {
    const base = camel(name);
    const free = (n: string) => !taken.has(n) && !RESERVED.has(n);
    let stem = base && !/^\d/.test(base) ? base : `${camel(kind)}${base.charAt(0).toUpperCase()}${base.slice(1)}`;
    if (!free(stem)) stem = `${stem}${kind}`;
    let candidate = stem;
    for (let i = 2; !free(candidate); i++) candidate = `${stem}${i}`;
    taken.add(candidate);
    return candidate;
  };
}
