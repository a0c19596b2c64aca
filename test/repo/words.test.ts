// One word per idea (issue 34 item 4, ARCHITECTURE.md's glossary): a name declared in two places
// comes to mean two things. No type, interface, class or enum name is declared by two source files
// of the provider or the emulator unless it is listed here with why; `Json` is declared once; and
// no two files of the provider share a name with "provider" in it (four did, doing four jobs).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Hand-written TypeScript sources under a folder: no build output, no generated code, no examples. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return ["dist", "node_modules", "generated", "examples"].includes(e.name) ? [] : sources(full);
    return /\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [full] : [];
  });
}

/** Each top-level type, interface, class or enum name, with the files that declare it (repo-relative). */
function declarations(files: string[]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
    for (const s of source.statements) {
      const named =
        ts.isTypeAliasDeclaration(s) ||
        ts.isInterfaceDeclaration(s) ||
        ts.isClassDeclaration(s) ||
        ts.isEnumDeclaration(s);
      if (!named || !s.name) continue;
      const where = by.get(s.name.text) ?? [];
      const rel = path.relative(ROOT, file);
      if (!where.includes(rel)) where.push(rel);
      by.set(s.name.text, where);
    }
  }
  return by;
}

/** Names declared twice on purpose (by the files' names, which survive a move): the same idea in two places. */
const SAME_IDEA: Record<string, string> = {
  // The public Fleet component, once per entry (dynamic and native classes).
  Fleet: "dynamic.ts native.ts",
  // A route's handler, in the emulator's interface routes and its current-API routes.
  Handler: "current-routes.ts routes.ts",
  // One helper type, copied in the kit and the dynamic entry: to be one once the entry is in provider/dynamic/.
  Widen: "kind.ts outputs.ts",
};

describe("one word per idea", () => {
  const files = [...sources(path.join(ROOT, "provider")), ...sources(path.join(ROOT, "emulator"))];
  const declared = declarations(files);

  it("declares Json once, in schemas/json.ts", () => {
    expect(declared.get("Json")).toEqual(["provider/schemas/json.ts"]);
  });

  it("declares no other name in two files, except the same idea listed with why", () => {
    const twice = [...declared]
      .filter(([, where]) => where.length > 1)
      .filter(
        ([name, where]) =>
          SAME_IDEA[name] !==
          where
            .map((f) => path.basename(f))
            .sort()
            .join(" "),
      )
      .map(([name, where]) => `${name}: ${[...where].sort().join(" ")}`);
    expect(twice).toEqual([]);
  });

  it("names no file of the provider provider.ts, nor two of them alike with provider in the name", () => {
    const named = sources(path.join(ROOT, "provider"))
      .map((f) => path.basename(f))
      .filter((b) => b.includes("provider"));
    expect(named).not.toContain("provider.ts");
    expect(named.length).toBe(new Set(named).size);
  });
});
