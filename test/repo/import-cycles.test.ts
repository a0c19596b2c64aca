// No module of the provider or the emulator imports itself back through others, not even for a
// type: a cycle hides which of two files a concept belongs to (issue 34 item 8 removed three).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every hand-written or generated TypeScript source under a package, without its build output. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "dist" || e.name === "node_modules" ? [] : sources(full);
    return /\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [full] : [];
  });
}

/** The files a source imports relatively (values, types and re-exports alike), as paths. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => path.resolve(path.dirname(file), spec.replace(/\.js$/, ".ts")))
    .filter((target) => existsSync(target));
}

/** One cycle per strongly connected loop found by a depth-first walk, as relative paths. */
function cycles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, "open");
    stack.push(f);
    for (const next of graph.get(f) ?? []) {
      if (state.get(next) === "open") found.push(stack.slice(stack.indexOf(next)).map((p) => path.relative(ROOT, p)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return found;
}

describe("import cycles", () => {
  it("the walk finds a cycle when there is one (a fixture of two files importing each other)", () => {
    const dir = path.join(ROOT, "test/repo/fixtures/cycle");
    expect(cycles(sources(dir))).toEqual([["test/repo/fixtures/cycle/a.ts", "test/repo/fixtures/cycle/b.ts"]]);
  });

  it("the provider and the emulator have none, type-only imports included", () => {
    const files = [...sources(path.join(ROOT, "provider")), ...sources(path.join(ROOT, "emulator"))];
    expect(files.length).toBeGreaterThan(100);
    expect(cycles(files)).toEqual([]);
  });
});
