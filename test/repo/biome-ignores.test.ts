// Every path biome.jsonc leaves out exists: an exclusion outliving its files would silently leave
// out whatever is later written at that path (issue 34 item 8 removed eleven such lines).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

it("each path biome.jsonc excludes by name (no glob) is in the repository", () => {
  const { config, error } = ts.parseConfigFileTextToJson(
    "biome.jsonc",
    readFileSync(path.join(ROOT, "biome.jsonc"), "utf8"),
  );
  expect(error).toBeUndefined();
  const includes: string[] = config.files.includes;
  const named = includes
    .filter((p) => p.startsWith("!"))
    .map((p) => p.replace(/^!+/, ""))
    .filter((p) => !p.includes("*"));
  expect(named.length).toBeGreaterThan(3);
  expect(named.filter((p) => !existsSync(path.join(ROOT, p)))).toEqual([]);
});
