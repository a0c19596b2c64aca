// One word per idea (issue 34 item 4, ARCHITECTURE.md's glossary): a name declared in two places
// comes to mean two things. No type, interface, class or enum name is declared by two source files
// of the provider or the emulator unless it is listed here with why; `Json` is declared once; and
// no two files of the provider share a name with "provider" in it (four did, doing four jobs). Issue
// 42: no type is an alias of another (one idea, one name: `Collection`, `ListedCollection` and
// `ExtensionKind` were `CollectionName`) unless it is a public name kept for users, marked
// @deprecated; and no top-level function name is declared in two files unless listed with why
// (`changedKeys` and `canonical` each named two unrelated functions).
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

/** Each alias of a type declared in `files` (`type A = B`, B a bare name), unless marked @deprecated. */
function aliases(files: string[], declaredNames: ReadonlySet<string>): string[] {
  return files.flatMap((file) => {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    return source.statements.flatMap((s) => {
      if (!ts.isTypeAliasDeclaration(s) || !ts.isTypeReferenceNode(s.type) || s.type.typeArguments) return [];
      const target = s.type.typeName;
      if (!ts.isIdentifier(target) || !declaredNames.has(target.text)) return [];
      if (ts.getJSDocTags(s).some((t) => t.tagName.text === "deprecated")) return [];
      return [`${path.relative(ROOT, file)}: ${s.name.text} = ${target.text}`];
    });
  });
}

/** The type aliases kept as deprecated public names, for users only. */
function deprecatedAliases(files: string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    for (const s of source.statements)
      if (ts.isTypeAliasDeclaration(s) && ts.getJSDocTags(s).some((t) => t.tagName.text === "deprecated"))
        names.add(s.name.text);
  }
  return names;
}

/**
 * Each second name a file gives one type: a deprecated alias used in the package's own code (it is
 * for users; the package says the one name), or a type of the package imported under another name
 * (`import { LifecycleRequest as At }`).
 */
function secondNames(files: string[], typeNames: ReadonlySet<string>, deprecated: ReadonlySet<string>): string[] {
  return files.flatMap((file) => {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const rel = path.relative(ROOT, file);
    const visit = (n: ts.Node) => {
      if (ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName) && deprecated.has(n.typeName.text))
        found.push(`${rel}: uses ${n.typeName.text}`);
      // Another package's type may be renamed on import, to keep clear of one of ours (got's RetryOptions).
      const from = n.parent?.parent?.parent;
      const ours =
        from &&
        ts.isImportDeclaration(from) &&
        ts.isStringLiteral(from.moduleSpecifier) &&
        from.moduleSpecifier.text.startsWith(".");
      if (ts.isImportSpecifier(n) && n.propertyName && ours && typeNames.has(n.propertyName.text))
        found.push(`${rel}: imports ${n.propertyName.text} as ${n.name.text}`);
      ts.forEachChild(n, visit);
    };
    visit(source);
    return found;
  });
}

/** Second names left as they were at issue 42, each with why (to rename when its file is next worked on). */
const SECOND_NAMES_LEFT: Record<string, string> = {};

/** Each top-level function name (a declaration, or a const holding an arrow or function), with the files declaring it. */
function functionNames(files: string[]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
    for (const s of source.statements) {
      const names =
        ts.isFunctionDeclaration(s) && s.name
          ? [s.name.text]
          : ts.isVariableStatement(s)
            ? s.declarationList.declarations.flatMap((d) =>
                ts.isIdentifier(d.name) &&
                d.initializer &&
                (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))
                  ? [d.name.text]
                  : [],
              )
            : [];
      for (const name of names) {
        const where = by.get(name) ?? [];
        where.push(path.basename(file));
        by.set(name, where);
      }
    }
  }
  return by;
}

/** Function names declared in several files for one meaning: the same small helper, or a forward to the one function. */
const SAME_FUNCTION: Record<string, string> = {
  // Small guards and formatters, private to each file, alike in what they do.
  isRecord:
    "action.ts agents.ts answers.ts check.ts construct.ts current.ts generation.ts guard.ts match.ts recover-state.ts routes.ts schema-outputs.ts",
  isObject: "contract.ts ignore-changes.ts",
  safeJson: "guard.ts shared-pace.ts transport.ts",
  pascal: "describe-function.ts describe.ts functions-ts.ts resource-docs.ts",
  camel: "check.ts names.ts",
  nonEmpty: "account-connection.ts vector-database.ts",
  sleep: "reconcile.ts unsettled.ts",
  seconds: "output.ts reconcile.ts",
  // One lookup shape's doc and secret flag, in the interface's and the current API's shapes.
  doc: "current-shapes.ts shapes.ts",
  secret: "current-shapes.ts shapes.ts",
  // What a kind's type checks of its own type-specific fields (Voice, AccountConnection).
  typeFields: "account-connection.ts voice.ts",
  // The package schema as text: written by the generator, read by the plugin from its package.
  schemaText: "embedded.ts package-schema.ts",
  // The Fleet's check, and the export that loads it lazily.
  checkFleet: "check.ts exports.ts",
  // The emulator's answers for a missing object and a refused body.
  notFound: "current-collections.ts current-fields.ts service.ts",
  invalid: "current-collections.ts service.ts",
  // A repeatable command-line option's accumulator, in the voiceagent CLI and the emulator's.
  collect: "cli.ts program.ts",
};

/**
 * Function names that still mean two things in two files, each private to its file: left as they
 * were at issue 42 (to rename when the file is next worked on). No name is added here; a name renamed
 * must leave the list (the test fails on an entry that no longer holds).
 */
const TWO_MEANINGS_LEFT: Record<string, string> = {
  oneLine: "errors.ts main.ts",
  settle: "reconcile.ts unsettled.ts",
  secretPaths: "function.ts schema-outputs.ts",
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

  it("names one type once: an alias of another type is a deprecated public name, never a second word", () => {
    expect(aliases(files, new Set(declared.keys()))).toEqual([]);
  });

  it("gives one type no second name: no deprecated alias in the package's own code, no type imported under another name", () => {
    const fixture = [path.join(ROOT, "test/repo/fixtures/words/second-names.ts")];
    expect(secondNames(fixture, new Set(["Spoken"]), deprecatedAliases(fixture))).toEqual([
      "test/repo/fixtures/words/second-names.ts: imports Spoken as Said",
      "test/repo/fixtures/words/second-names.ts: uses Uttered",
    ]);
    const left = secondNames(files, new Set(declared.keys()), deprecatedAliases(files)).filter(
      (n) => SECOND_NAMES_LEFT[n] === undefined,
    );
    expect(left).toEqual([]);
  });

  it("declares no function name in two files, except one meaning listed with why (and the two-meaning names left, which only shrink)", () => {
    const twice = [...functionNames(files)]
      .filter(([, where]) => where.length > 1)
      .map(([name, where]) => [name, [...where].sort().join(" ")] as const);
    const unlisted = twice
      .filter(([name, where]) => SAME_FUNCTION[name] !== where && TWO_MEANINGS_LEFT[name] !== where)
      .map(([name, where]) => `${name}: ${where}`);
    expect(unlisted).toEqual([]);
    // An entry that no longer holds (a name renamed) leaves its list.
    const found = new Map(twice);
    const stale = Object.entries({ ...SAME_FUNCTION, ...TWO_MEANINGS_LEFT }).filter(([n, w]) => found.get(n) !== w);
    expect(stale).toEqual([]);
  });
});
