// What a user's editor and type-checker see of the public classes, read from the built declarations
// as TypeScript resolves `pulumi-voiceagent` under both resolution modes users have: every argument
// carries a doc text, and every output is typed as what exists at run time (no output the kind does
// not register; `T | undefined` exactly where the kind may leave it unset). Docs are not compared
// with the generator's own input (that would only check the copy): each must exist, and the ones
// a user needs to get an input right say the limits preview enforces, as the README states them.
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { describeKinds } from "../../provider/codegen/package-schema.js";
import { REPO_ROOT } from "../helpers/consumer.js";

const modes = [
  { name: "node (CommonJS)", module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 },
  { name: "nodenext", module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
];

/** A program of one consumer file (in memory) that imports the package by its name. */
function consumer(options: ts.CompilerOptions) {
  const file = path.join(REPO_ROOT, "test/codegen/consumer.ts");
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === file
      ? ts.createSourceFile(name, 'import * as va from "pulumi-voiceagent";\nexport { va };\n', version)
      : read(name, version, ...rest);
  const program = ts.createProgram([file], options, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const declaration = source?.statements.find(ts.isImportDeclaration);
  const moduleSymbol = declaration ? checker.getSymbolAtLocation(declaration.moduleSpecifier) : undefined;
  if (!source || !moduleSymbol) throw new Error("pulumi-voiceagent did not resolve");
  const exported = new Map(checker.getExportsOfModule(moduleSymbol).map((s) => [s.name, s]));
  return { program, checker, exported, source };
}

const docOf = (checker: ts.TypeChecker, s: ts.Symbol) =>
  ts.displayPartsToString(s.getDocumentationComment(checker)).replace(/\s+/g, " ").trim();

const isReference = (t: ts.Type): t is ts.TypeReference =>
  "objectFlags" in t && typeof t.objectFlags === "number" && (t.objectFlags & ts.ObjectFlags.Reference) !== 0;

/** T of a property typed `Output<T>`, or undefined when it is not an Output. */
function outputValue(checker: ts.TypeChecker, t: ts.Type): ts.Type | undefined {
  // Output<T> is OutputInstance<T> & Lifted<T>; for a union T, TypeScript spreads it into a union of those.
  const parts = t.isUnionOrIntersection() ? t.types.flatMap((p) => (p.isIntersection() ? p.types : [p])) : [t];
  const instance = parts.find((p) => p.getSymbol()?.name === "OutputInstance");
  return instance && isReference(instance) ? checker.getTypeArguments(instance)[0] : undefined;
}

describe("the public types of pulumi-voiceagent", () => {
  const kinds = describeKinds();

  it.each(modes)(
    "carry each kind's doc text on every argument and output, and type only outputs that exist ($name)",
    ({ module, moduleResolution }) => {
      const { program, checker, exported, source } = consumer({
        noEmit: true,
        strict: true,
        skipLibCheck: true,
        module,
        moduleResolution,
        types: [],
      });
      expect(
        program.getSemanticDiagnostics(source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
      ).toEqual([]);
      const problems: string[] = [];
      for (const k of kinds) {
        const argsSymbol = exported.get(`${k.kind}Args`);
        const classSymbol = exported.get(k.kind);
        if (!argsSymbol || !classSymbol) {
          problems.push(`${k.kind}: no class or no ${k.kind}Args exported`);
          continue;
        }
        // Arguments: exactly the kind's inputs, each with the kind's doc text.
        const args = checker.getDeclaredTypeOfSymbol(argsSymbol).getProperties();
        const inputs = k.properties.filter((p) => p.input);
        if (args.map((a) => a.name).join() !== inputs.map((p) => p.name).join())
          problems.push(`${k.kind}Args: ${args.map((a) => a.name).join()}`);
        for (const a of args) if (docOf(checker, a).length < 10) problems.push(`${k.kind}Args.${a.name}: no doc text`);
        // Outputs: every Output-typed property of the class is a property the kind registers.
        const instance = checker.getDeclaredTypeOfSymbol(classSymbol);
        const outputs = instance
          .getProperties()
          .filter((s) => !["id", "urn"].includes(s.name) && outputValue(checker, checker.getTypeOfSymbol(s)));
        const declared = new Map(k.properties.map((p) => [p.name, p]));
        for (const o of outputs) {
          const p = declared.get(o.name);
          if (!p) {
            problems.push(`${k.kind}.${o.name}: typed, not a property of the kind`);
            continue;
          }
          const value = outputValue(checker, checker.getTypeOfSymbol(o));
          const mayBeUnset =
            value !== undefined &&
            (value.flags & ts.TypeFlags.Undefined ||
              (value.isUnion() && value.types.some((t) => t.flags & ts.TypeFlags.Undefined)));
          if (Boolean(mayBeUnset) === p.output.required)
            problems.push(
              `${k.kind}.${o.name}: Output<${value ? checker.typeToString(value) : "?"}>, but the kind says ` +
                `${p.output.required ? "always set" : "may be unset"}`,
            );
          if (docOf(checker, o).length < 10) problems.push(`${k.kind}.${o.name}: no doc text`);
        }
        for (const p of k.properties)
          if (!outputs.some((o) => o.name === p.name)) problems.push(`${k.kind}.${p.name}: not an output of the class`);
      }
      expect(problems).toEqual([]);
      const argDoc = (kind: string, name: string) => {
        const s = exported.get(`${kind}Args`);
        const p = s && checker.getDeclaredTypeOfSymbol(s).getProperty(name);
        return p ? docOf(checker, p) : "";
      };
      expect(argDoc("Voice", "pitch")).toMatch(/-100 to 100/);
      expect(argDoc("Voice", "rate")).toMatch(/0 to 100/);
      expect(argDoc("Agent", "prompt")).toMatch(/at most 100000 characters/);
      expect(argDoc("Webhook", "url")).toMatch(/without credentials/);
    },
  );
});
