// test/ mirrors the layers (ARCHITECTURE.md, "Tests"; issue 42): each folder of test/ that holds a
// test file is named for the layer or package it tests, and that layer exists, or it is one of the
// suites that drive the whole package from outside. A test file in a folder that names nothing (a
// catch-all such as the former test/provider, which held the kit, the kinds and the coordination
// together), directly under test/, or in a folder whose layer was moved or removed, fails here.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** A layer's test folder, and the source folder it mirrors. */
const LAYERS: Readonly<Record<string, string>> = {
  client: "provider/client",
  kit: "provider/resources/kit",
  kinds: "provider/resources/kinds",
  functions: "provider/resources/functions",
  coordination: "provider/coordination",
  plugin: "provider/plugin",
  native: "provider/native",
  cli: "provider/cli",
  fleet: "provider/fleet",
  codegen: "provider/codegen",
  emulator: "emulator",
  policy: "policy",
  sdk: "sdk",
};

/** The folders that drive the package from outside, across the layers, and what each holds. */
const ACROSS: Readonly<Record<string, string>> = {
  e2e: "the real Pulumi CLI on the dynamic entry against the emulator",
  yaml: "Pulumi YAML programs on the plugin downloaded from the release folder",
  consumer: "the packed tarball installed in projects outside the repository",
  release: "what `npm run release` writes",
  trial: "a field and a kind added as a contributor adds them",
  upgrade: "the state each released version left (fixtures only)",
  repo: "the repository's own rules",
  helpers: "what the tests share (and a test of one of them)",
};

/** Every `*.test.ts` under `dir`, relative to test/. */
function testFiles(dir: string, rel = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory())
      return e.name === "node_modules" ? [] : testFiles(path.join(dir, e.name), path.join(rel, e.name));
    return e.name.endsWith(".test.ts") ? [path.join(rel, e.name)] : [];
  });
}

it("each test file is in the folder of a layer or of a suite across them, never directly under test/", () => {
  const files = testFiles(path.join(ROOT, "test"));
  expect(files.length).toBeGreaterThan(0);
  const misplaced = files.filter((f) => {
    const folder = f.split(path.sep)[0] ?? "";
    return f === folder || !(folder in LAYERS || folder in ACROSS);
  });
  expect(misplaced).toEqual([]);
});

it("each layer's test folder mirrors a source folder that exists, and no folder is both", () => {
  const missing = Object.entries(LAYERS).filter(([, source]) => {
    const full = path.join(ROOT, source);
    return !existsSync(full) || !statSync(full).isDirectory();
  });
  expect(missing).toEqual([]);
  expect(Object.keys(LAYERS).filter((folder) => folder in ACROSS)).toEqual([]);
});
