// No module of the provider keeps mutable state of its own outside the edges (issue 34 item 1): what a
// process keeps lives in its one host (provider/host.ts), built at each edge and passed down, so two
// hosts in one process (two provider instances, two tests) never share a store. A top-level `let` or
// `var`, or a top-level Map, Set, WeakMap, WeakSet, array or record of them that the file changes
// (add, set, push, delete, clear...), is module state. Tables built at load and never changed are fine.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The edges: each process's one place that builds its host and may hold it (and what only that
 * process keeps) at module level. Each says why it is one.
 */
const EDGES: Readonly<Record<string, string>> = {
  // The dynamic provider host's process: every shim loads this module; its host lives here.
  "provider/dynamic/runtimes.ts": "the dynamic provider host",
  // The program's own process: its resources' host and the serialized provider of each kind.
  "provider/dynamic/program.ts": "the program's process",
};

/** Every TypeScript source under `dir`, without build output. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "dist" || e.name === "node_modules" ? [] : sources(full);
    return /\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [full] : [];
  });
}

const MUTABLE = /^(Map|Set|WeakMap|WeakSet)$/;
const MUTATING = "add|set|delete|clear|push|pop|shift|unshift|splice|sort|reverse|fill";

/** Whether a top-level initializer makes a container: `new Map()`, `[]`, `{ a: new Set() }`. */
function container(init: ts.Expression | undefined): boolean {
  if (!init) return false;
  if (ts.isAsExpression(init) || ts.isSatisfiesExpression(init)) return container(init.expression);
  if (ts.isNewExpression(init)) return ts.isIdentifier(init.expression) && MUTABLE.test(init.expression.text);
  if (ts.isArrayLiteralExpression(init)) return true;
  if (ts.isObjectLiteralExpression(init))
    return init.properties.some((p) => ts.isPropertyAssignment(p) && container(p.initializer));
  return false;
}

/** The module state a source declares at top level: `name (line): why`. */
function moduleState(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const line = (n: ts.Node) => source.getLineAndCharacterOfPosition(n.getStart()).line + 1;
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
    for (const d of list.declarations) {
      if (!ts.isIdentifier(d.name)) continue;
      const name = d.name.text;
      if (!isConst) {
        found.push(`${name} (${line(d)}): a top-level let or var`);
        continue;
      }
      if (!container(d.initializer)) continue;
      // Changed anywhere in the file: `name.add(`, `name[k].push(`, `name.a?.add(`, `name.length = `.
      const changed = new RegExp(
        `(?<![\\w.])${name}(\\??\\.\\w+|(\\?\\.)?\\[[^\\]]*\\])*\\??\\.(${MUTATING})\\(|(?<![\\w.])${name}(\\[[^\\]]*\\]|\\.length)\\s*=[^=]`,
      );
      // A local of the same name (inside a function) is not the module's: a name declared twice is
      // left to review rather than guessed at.
      const shadowed = new RegExp(`\\b(const|let|var)\\s+${name}\\b`, "g");
      const declarations = text.match(shadowed)?.length ?? 0;
      if (changed.test(text) && declarations === 1)
        found.push(`${name} (${line(d)}): a top-level container the module changes`);
    }
  }
  return found;
}

describe("module state", () => {
  it("is found in a fixture that has each kind of it, and a fixture of constant tables passes", () => {
    const dir = path.join(ROOT, "test/repo/fixtures/module-state");
    expect(moduleState(path.join(dir, "stateful.ts"))).toEqual([
      "counter (2): a top-level let or var",
      "seen (3): a top-level container the module changes",
      "byName (4): a top-level container the module changes",
      "queue (5): a top-level container the module changes",
      "perKind (6): a top-level container the module changes",
    ]);
    expect(moduleState(path.join(dir, "constant.ts"))).toEqual([]);
  });

  it("the provider keeps none outside its edges: what a process keeps is its host's", () => {
    const files = sources(path.join(ROOT, "provider")).filter((f) => !(path.relative(ROOT, f) in EDGES));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => moduleState(f).map((s) => `${path.relative(ROOT, f)}: ${s}`));
    expect(found).toEqual([]);
  });
});
