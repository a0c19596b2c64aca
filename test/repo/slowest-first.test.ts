// The list of files to start first names files that exist: a renamed slow file would otherwise
// silently start late again.
import { existsSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { SLOWEST_FIRST } from "../slowest-first.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

it("each file test/slowest-first.ts starts first is a test file of the repository", () => {
  expect(SLOWEST_FIRST.length).toBeGreaterThan(0);
  expect(SLOWEST_FIRST.filter((f) => !f.endsWith(".test.ts") || !existsSync(path.join(ROOT, f)))).toEqual([]);
});
