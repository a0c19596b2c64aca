// One error family (issue 42): every error class of the package descends from one root,
// VoiceAgentError (provider/voiceagent-error.ts), which carries `code` and `mayHaveActed`, so a
// caller branches on them whatever failed; and nothing under provider/resources/ throws a bare
// built-in error, which would lose both on the way out. Elsewhere in provider/ (but generated/ and
// dist/), a bare error is allowed only where no user can see it, each file listed below with why.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parseCollections } from "../../provider/cli/kinds.js";
import { createClient } from "../../provider/client/index.js";
import { parseRange } from "../../provider/own-manifest.js";
import { VoiceAgentError } from "../../provider/voiceagent-error.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const THE_ROOT = "VoiceAgentError";
const BUILT_IN = /^(Error|TypeError|RangeError|SyntaxError|ReferenceError|EvalError|URIError|AggregateError)$/;
/** An error class of another package (`pulumi.RunError`, `RequestError`): a root outside the family. */
const FOREIGN_ERROR = /(^|\.)\w*Error$/;

/** Every TypeScript source under `dir`, without build output. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "dist" || e.name === "node_modules" ? [] : sources(full);
    return /\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [full] : [];
  });
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
}

/** Every class a source declares, with the name it extends (undefined for none). */
function classes(source: ts.SourceFile): { name: string; base: string | undefined; line: number }[] {
  const found: { name: string; base: string | undefined; line: number }[] = [];
  const visit = (n: ts.Node) => {
    if ((ts.isClassDeclaration(n) || ts.isClassExpression(n)) && n.name) {
      const clause = n.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
      const base = clause?.types[0]?.expression;
      found.push({
        name: n.name.text,
        base: base ? base.getText(source) : undefined,
        line: source.getLineAndCharacterOfPosition(n.getStart()).line + 1,
      });
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

/**
 * The error classes outside the family: a class that reaches a built-in error other than through
 * the root. Classes are followed by name across every file given (the package's names are unique).
 */
function outsideTheFamily(files: string[]): string[] {
  const all = files.flatMap((f) => classes(parse(f)).map((c) => ({ ...c, file: path.relative(ROOT, f) })));
  const byName = new Map(all.map((c) => [c.name, c]));
  /** The built-in error a class reaches, and whether the root is on the way. */
  const reach = (name: string, seen: Set<string>): { builtIn: boolean; viaRoot: boolean } => {
    if (name === THE_ROOT) return { builtIn: true, viaRoot: true };
    if (BUILT_IN.test(name)) return { builtIn: true, viaRoot: false };
    const c = byName.get(name);
    if (!c && FOREIGN_ERROR.test(name)) return { builtIn: true, viaRoot: false };
    if (!c?.base || seen.has(name)) return { builtIn: false, viaRoot: false };
    return reach(c.base, new Set([...seen, name]));
  };
  return all
    .filter((c) => c.name !== THE_ROOT && c.base !== undefined)
    .filter((c) => {
      const r = reach(c.base ?? "", new Set([c.name]));
      return r.builtIn && !r.viaRoot;
    })
    .map((c) => `${c.file}:${c.line} ${c.name} extends ${c.base}`);
}

/** Every bare built-in error a source makes: `new Error(...)`, `Error(...)`, `new TypeError(...)`. */
function bareErrors(file: string): string[] {
  const source = parse(file);
  const found: string[] = [];
  const visit = (n: ts.Node) => {
    if (
      (ts.isNewExpression(n) || ts.isCallExpression(n)) &&
      ts.isIdentifier(n.expression) &&
      BUILT_IN.test(n.expression.text)
    )
      found.push(
        `${path.relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1} ${n.expression.text}`,
      );
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

/**
 * The bare built-in errors of provider/ outside resources/, by file: how many, and why no user sees
 * one (an invariant of the package's own tables, a failure of the code generator that only a
 * developer running `npm run gen` meets, or an error made only to be a cause or caught at once).
 * Anything a user can see is a family error with its code and whether the service may have acted.
 */
const ALLOWED_BARE: Record<string, { count: number; why: string }> = {
  "provider/cli/kinds.ts": {
    count: 2,
    why: "the registry has a puller for every account collection (an invariant of kinds/)",
  },
  "provider/client/collection-client.ts": { count: 1, why: "the collection table names every route it is asked for" },
  "provider/client/errors.ts": {
    count: 1,
    why: "a redacted copy of a cause, kept as the ApiError's `cause`, never thrown",
  },
  "provider/client/transport.ts": {
    count: 1,
    why: "a non-Error thrown by fetch, made an Error to be the cause of an ApiConnectionError",
  },
  "provider/codegen/describe-function.ts": {
    count: 6,
    why: "`npm run gen`: a function's schema the generator cannot describe",
  },
  "provider/codegen/describe.ts": { count: 6, why: "`npm run gen`: a kind's input the generator cannot describe" },
  "provider/codegen/examples.ts": { count: 2, why: "`npm run gen`: a kind without its example files" },
  "provider/codegen/fleet-schema.ts": { count: 1, why: "`npm run gen`: an entry section whose kind is not described" },
  "provider/codegen/fleet-ts.ts": { count: 3, why: "`npm run gen`: the schema's Fleet component changed shape" },
  "provider/codegen/fleet-spec.ts": { count: 2, why: "`npm run gen`: an entry section whose kind is not described" },
  "provider/codegen/schema.ts": { count: 1, why: "`npm run gen`: two nested objects of one name" },
  "provider/coordination/deployment.ts": {
    count: 1,
    why: "usableRoot's refusal, caught at once and worded as a CoordinationError",
  },
  "provider/dynamic/runtimes.ts": { count: 1, why: "the dynamic provider host calls only the six methods it has" },
  "provider/fleet/entries.ts": {
    count: 1,
    why: "a kind's input built with zod's classic API (an invariant of kinds/)",
  },
  "provider/fleet/sections.ts": {
    count: 1,
    why: "every entry section's kind is registered and adoptable (an invariant of kinds/)",
  },
};

describe("the error family", () => {
  const fixture = path.join(ROOT, "test/repo/fixtures/error-family/strays.ts");
  const provider = sources(path.join(ROOT, "provider")).filter((f) => !f.includes(`${path.sep}generated${path.sep}`));

  it("finds each way out of it in a fixture, and passes the fixture's classes under the root", () => {
    const root = path.join(ROOT, "provider/voiceagent-error.ts");
    expect(outsideTheFamily([root, fixture])).toEqual([
      "test/repo/fixtures/error-family/strays.ts:15 Stray extends Error",
      "test/repo/fixtures/error-family/strays.ts:18 StrayChild extends Stray",
      "test/repo/fixtures/error-family/strays.ts:21 Typed extends TypeError",
      "test/repo/fixtures/error-family/strays.ts:24 Foreign extends pulumi.RunError",
    ]);
    expect(bareErrors(fixture)).toEqual([
      "test/repo/fixtures/error-family/strays.ts:27 Error",
      "test/repo/fixtures/error-family/strays.ts:28 Error",
      "test/repo/fixtures/error-family/strays.ts:29 RangeError",
    ]);
  });

  it("every error class of the package descends from VoiceAgentError, the one root", () => {
    expect(provider.length).toBeGreaterThan(100);
    expect(outsideTheFamily(provider)).toEqual([]);
    // The root itself, and that it says what every member carries.
    const root = classes(parse(path.join(ROOT, "provider/voiceagent-error.ts")));
    expect(root).toMatchObject([{ name: THE_ROOT, base: "Error" }]);
    expect(readFileSync(path.join(ROOT, "provider/voiceagent-error.ts"), "utf8")).toMatch(
      /abstract readonly code: string;[\s\S]*abstract readonly mayHaveActed: boolean;/,
    );
  });

  it("nothing under provider/resources/ throws or makes a bare built-in error", () => {
    const resources = provider.filter((f) => f.startsWith(path.join(ROOT, "provider/resources") + path.sep));
    expect(resources.length).toBeGreaterThan(40);
    expect(resources.flatMap(bareErrors)).toEqual([]);
  });

  it("elsewhere in provider/, a bare built-in error is made only where the list above says why no user sees it", () => {
    const resources = path.join(ROOT, "provider/resources") + path.sep;
    const found = provider.filter((f) => !f.startsWith(resources)).flatMap(bareErrors);
    const byFile: Record<string, number> = {};
    for (const at of found) {
      const file = at.slice(0, at.indexOf(":"));
      byFile[file] = (byFile[file] ?? 0) + 1;
    }
    expect(byFile).toEqual(Object.fromEntries(Object.entries(ALLOWED_BARE).map(([f, a]) => [f, a.count])));
  });

  it("the emulator, its own package, has one error class outside the family: HttpFailure, the service's answer", () => {
    // ARCHITECTURE.md ("Layers") says why: its text is the service's own words, not this package's.
    const emulator = sources(path.join(ROOT, "emulator"));
    expect(emulator.length).toBeGreaterThan(20);
    expect(outsideTheFamily(emulator)).toEqual(["emulator/http-failure.ts:4 HttpFailure extends Error"]);
  });

  it("the errors a user meets there carry their code, say nothing was sent and what to do", () => {
    const thrown = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return err;
      }
      return undefined;
    };
    const family = (err: unknown) =>
      err instanceof VoiceAgentError ? { code: err.code, mayHaveActed: err.mayHaveActed } : { bare: String(err) };
    expect(family(thrown(() => parseCollections("")))).toMatchObject({ code: "E_COMMAND", mayHaveActed: false });
    expect(family(thrown(() => parseCollections("agnets")))).toMatchObject({ code: "E_COMMAND", mayHaveActed: false });
    const client = thrown(() => createClient({ baseUrl: "http://127.0.0.1:9", token: "" }));
    expect(family(client)).toMatchObject({ code: "E_SETTINGS", mayHaveActed: false });
    expect(String(client)).toMatch(/token is required; nothing was sent to the service: pass/);
    const install = thrown(() => parseRange("^3"));
    expect(family(install)).toMatchObject({ code: "E_INSTALL", mayHaveActed: false });
    expect(String(install)).toMatch(/nothing was sent to the service: reinstall/);
  });
});
