// What the npm package loads at run time, it declares. A user's install holds the package's
// dependencies and peer dependencies, nothing of its devDependencies: a module the package's code
// loads that only a devDependency provides resolves in this repo (and in a flat npm install, when
// another package happens to bring it) but fails with ERR_MODULE_NOT_FOUND under a strict layout
// such as pnpm's. The dynamic host's engine log once imported @grpc/grpc-js that way. The plugin
// (provider/plugin/) ships bundled, with its dependencies inside, and the code generators not at
// all (provider/package.json `files`), so neither is held to this.
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PROVIDER = path.join(ROOT, "provider");
/** Folders of provider/ that ship no unbundled code, or none at all. */
const NOT_SHIPPED = new Set(["plugin", "codegen", "dist", "node_modules", "examples"]);

/** The provider's TypeScript sources that become the package's JavaScript. */
function shipped(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return dir === PROVIDER && NOT_SHIPPED.has(e.name) ? [] : shipped(full);
    return /\.ts$/.test(e.name) && !/\.(d|test)\.ts$/.test(e.name) ? [full] : [];
  });
}

/** The package a bare specifier names (`@scope/name` or `name`); undefined for a relative path. */
function packageOf(spec: string): string | undefined {
  if (spec.startsWith(".") || spec.startsWith("/")) return undefined;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The specifiers a source loads at run time: imports and re-exports not erased as types, `import()`, `require()`. */
function runtimeSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const onlyTypes =
        clause?.isTypeOnly === true ||
        (clause !== undefined &&
          clause.name === undefined &&
          named !== undefined &&
          ts.isNamedImports(named) &&
          named.elements.length > 0 &&
          named.elements.every((e) => e.isTypeOnly));
      if (!onlyTypes) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node)) {
      const [arg] = node.arguments;
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === "require";
      if ((isImport || isRequire) && arg && ts.isStringLiteral(arg)) found.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Each runtime load of a package the manifest does not declare, as `file: package`. */
function undeclared(files: readonly string[], declared: ReadonlySet<string>): string[] {
  const builtin = new Set(builtinModules);
  return files.flatMap((file) =>
    runtimeSpecifiers(file)
      .map(packageOf)
      .filter((name): name is string => name !== undefined)
      .filter((name) => !name.startsWith("node:") && !builtin.has(name) && !declared.has(name))
      .map((name) => `${path.relative(ROOT, file)}: ${name}`),
  );
}

const Manifest = z.object({
  name: z.string(),
  dependencies: z.record(z.string(), z.string()).default({}),
  peerDependencies: z.record(z.string(), z.string()).default({}),
});

describe("what the package loads, it declares", () => {
  it("the walk tells a runtime load from a type-only one (this file's own imports)", () => {
    // This test file imports node builtins, typescript, vitest and zod at run time, and nothing by type.
    expect(undeclared([path.join(ROOT, "test/repo/declared-imports.test.ts")], new Set(["zod"]))).toEqual([
      "test/repo/declared-imports.test.ts: typescript",
      "test/repo/declared-imports.test.ts: vitest",
    ]);
  });

  it("every package the provider's shipped code loads is a dependency or a peer dependency", () => {
    const manifest = Manifest.parse(JSON.parse(readFileSync(path.join(PROVIDER, "package.json"), "utf8")));
    // The package's own name resolves to itself (package.json `exports`): the shim loads its runtimes so.
    const declared = new Set([
      manifest.name,
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.peerDependencies),
    ]);
    const files = shipped(PROVIDER);
    expect(files.length).toBeGreaterThan(100);
    expect(undeclared(files, declared)).toEqual([]);
  });
});
