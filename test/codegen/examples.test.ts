// The examples the schema and the classes show (provider/examples/<name>.ts, .py, .go) compile
// against what users get: TypeScript against the package's types (one in-process program), Python
// against the generated SDK (compiled, and every name and keyword argument looked up in it: one
// python run), Go against sdk/go (one `go vet`). A snippet naming a property the SDK lacks fails here.
import { readdirSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { examplesOf, snippetOf } from "../../provider/codegen/examples.js";
import { FUNCTIONS } from "../../provider/resources/functions/index.js";
import { KIND_NAMES } from "../../provider/resources/kinds/index.js";
import { REPO_ROOT, run } from "../helpers/consumer.js";

const dir = path.join(REPO_ROOT, "provider", "examples");
const files = (ext: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(`.${ext}`))
    .map((f) => path.join(dir, f));
const names = [...KIND_NAMES, ...FUNCTIONS.map((f) => f.name)];

describe("the per-language examples", () => {
  it("exist for every kind and function, one snippet per language", () => {
    for (const name of names) {
      const { example, examples } = examplesOf(name);
      for (const text of [example, examples.python, examples.go]) expect(text.trim(), name).not.toBe("");
    }
    // Nothing else: every file is some kind's or function's.
    expect(files("ts").length).toBe(names.length);
  });

  it("show the lines between the markers, without their shared indentation", () => {
    const text = "package x\n\nfunc f() {\n\t// example begin\n\ta := 1\n\tif a {\n\t\tb()\n\t}\n\t// example end\n}\n";
    expect(snippetOf(text, "x.go")).toBe("a := 1\nif a {\n\tb()\n}");
    expect(() => snippetOf("x = 1\n", "x.py")).toThrow(/x\.py.*example begin/);
  });

  it("TypeScript: compile against the package's types", () => {
    const program = ts.createProgram(files("ts"), {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2023,
      // Top-level await, as in a Pulumi program that is an ES module.
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: [],
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file
        ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(errors).toEqual([]);
  });

  it("Python: compile, and name only what the generated SDK has", async () => {
    const python = process.env.VOICEAGENT_PYTHON;
    if (!python) throw new Error("VOICEAGENT_PYTHON is not set: run the tests through scripts/run.sh");
    const script = path.join(REPO_ROOT, "test", "codegen", "examples_check.py");
    const r = await run(python, [script, path.join(REPO_ROOT, "sdk", "python"), ...files("py")], { cwd: dir });
    expect(`${r.stdout}${r.stderr}`).toBe("");
    expect(r.code).toBe(0);
  });

  it("Go: vet against sdk/go (the module's replace directive)", async () => {
    const env = {
      ...process.env,
      // The CLI's build flags, so the Pulumi SDK packages come from the build cache the Go SDK test fills.
      GOFLAGS: "-mod=mod -buildvcs=false -trimpath -tags=osusergo,grpcnotrace",
      GOTOOLCHAIN: "local",
      CGO_ENABLED: "0",
    };
    const r = await run("go", ["vet", "."], { cwd: dir, env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
  }, 600_000);
});
