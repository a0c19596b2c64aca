// Values written into pulled programs: whatever a string holds, the literal evaluates back to it.
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { commentText, jsonLiteral, keyLiteral, stringLiteral } from "../../provider/cli/literal.js";
import type { Json } from "../../provider/schemas/json.js";

/** Compiles `expr` as TypeScript and evaluates the result: what the user's program would see. */
function evalTs(expr: string): unknown {
  const out = ts.transpileModule(`export const v = (${expr});`, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
    reportDiagnostics: true,
  });
  expect(out.diagnostics ?? []).toEqual([]);
  const exports: { v?: unknown } = {};
  new Function("exports", out.outputText)(exports);
  return exports.v;
}

describe("string literals", () => {
  it.each([
    ["quotes \"double\" and 'single'"],
    ["back\\slash \\n not a newline"],
    ["template ${injection} and `backticks`"],
    ["line one\nline two\r\nthree"],
    ["comment end */ and start /* and // slashes"],
    ["unicode é 日本 😀 and separators \u2028 \u2029 and \u0085"],
    ["lone surrogate \ud800 and nul \u0000"],
  ])("%j survives TypeScript", (s) => {
    expect(evalTs(stringLiteral(s))).toBe(s);
    expect(stringLiteral(s)).not.toMatch(/[\n\r\u2028\u2029]/);
  });

  it("any string survives TypeScript", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => void expect(evalTs(stringLiteral(s))).toBe(s)),
      { numRuns: 200 },
    );
  });
});

describe("JSON values (an action's config)", () => {
  it("any JSON value survives, keys included", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (v) => {
        expect(evalTs(jsonLiteral(JSON.parse(JSON.stringify(v)) as Json))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 200 },
    );
  });

  it("a __proto__ key becomes an own property, not the prototype", () => {
    const value = evalTs(jsonLiteral(JSON.parse('{"__proto__": {"polluted": true}, "a-b": 1, "ok": 2}') as Json));
    expect(Object.keys(value as object)).toEqual(["__proto__", "a-b", "ok"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(keyLiteral("__proto__")).toBe('["__proto__"]');
    expect(keyLiteral("phoneNumber")).toBe("phoneNumber");
    expect(keyLiteral("we-ird")).toBe('"we-ird"');
  });
});

describe("comment text", () => {
  it("never ends a // comment early", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(commentText(s)).not.toMatch(/[\r\n\u2028\u2029\u0085]/);
        expect(evalTs(`// ${commentText(s)}\n1`)).toBe(1);
      }),
      { numRuns: 200 },
    );
  });
});
