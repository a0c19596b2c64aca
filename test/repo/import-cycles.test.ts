// No module of the provider or the emulator imports itself back through others, not even for a
// type: a cycle hides which of two files a concept belongs to (issue 34 item 8 removed three). And
// layers import one way (ARCHITECTURE.md, "Layers"), lazily or not: nothing outside provider/plugin/
// imports it, since the npm package ships the plugin only bundled (provider/package.json `files`
// leaves dist/plugin/*.js out). The dynamic entry once imported plugin/grpc.ts lazily to show a
// partial create on the engine's log, which failed in the package with ERR_MODULE_NOT_FOUND; what
// both need is now provider/engine-log.ts, above both.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every hand-written or generated TypeScript source at a file or under a folder, without its build output. */
function sources(dir: string): string[] {
  if (!statSync(dir).isDirectory()) return /\.ts$/.test(dir) ? [dir] : [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "dist" || e.name === "node_modules" ? [] : sources(full);
    return /\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [full] : [];
  });
}

/** The files a source imports relatively (values, types, re-exports and `import()` alike), as paths. */
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

/** Each import from a source under one of `from` into a file under one of `into` (repo-relative), as `importer -> imported`. */
function crossings(from: readonly string[], into: readonly string[]): string[] {
  const inside = (file: string) =>
    into.some((p) => file === path.join(ROOT, p) || file.startsWith(path.join(ROOT, p) + path.sep));
  return from
    .flatMap((p) => sources(path.join(ROOT, p)))
    .flatMap((f) =>
      importsOf(f)
        .filter(inside)
        .map((target) => `${path.relative(ROOT, f)} -> ${path.relative(ROOT, target)}`),
    );
}

/** Everything of provider/ but the plugin and the build output: none of it may import the plugin. */
const outsideThePlugin = readdirSync(path.join(ROOT, "provider"))
  .filter((name) => !["plugin", "dist", "node_modules"].includes(name))
  .map((name) => `provider/${name}`);

describe("layers import one way", () => {
  it("the walk finds a lazy import() as well as a static one (a fixture importing both ways)", () => {
    expect(crossings(["test/repo/fixtures/layers/lower.ts"], ["test/repo/fixtures/layers/upper"])).toEqual([
      "test/repo/fixtures/layers/lower.ts -> test/repo/fixtures/layers/upper/eager.ts",
      "test/repo/fixtures/layers/lower.ts -> test/repo/fixtures/layers/upper/lazy.ts",
    ]);
  });

  it.each([
    { layer: "the dynamic entry", from: ["provider/index.ts", "provider/dynamic"], never: ["provider/plugin"] },
    { layer: "nothing outside the plugin", from: outsideThePlugin, never: ["provider/plugin"] },
    { layer: "the code generators", from: ["provider/codegen"], never: ["provider/cli"] },
  ])("$layer: no import of $never", ({ from, never }) => {
    expect(crossings(from, never)).toEqual([]);
  });
});
