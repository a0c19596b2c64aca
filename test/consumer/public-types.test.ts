// The public types are self-contained: a consumer's type-check of `pulumi-voiceagent` must not
// descend into zod's or got's declarations (their internals change between releases, need
// settings users do not have, e.g. esModuleInterop, and slow every `tsc`). Walks the declaration
// closure of the root entry as TypeScript resolves it, under both resolution modes users have.
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/consumer.js";

const entry = path.join(REPO_ROOT, "provider/dist/index.d.ts");
const internals = /\/node_modules\/(zod|got)\//;

const modes = [
  {
    name: "node (CommonJS, pulumi new typescript until 2026)",
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  },
  { name: "nodenext", module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
];

describe("the declaration closure of pulumi-voiceagent's root entry", () => {
  it.each(modes)("reaches no zod or got declarations ($name)", ({ module, moduleResolution }) => {
    const program = ts.createProgram([entry], { noEmit: true, strict: true, module, moduleResolution, types: [] });
    const files = program.getSourceFiles().map((f) => f.fileName);
    expect(files).toContain(entry);
    // Name the way in: which of our declaration files import zod or got.
    const ours = program.getSourceFiles().filter((f) => f.fileName.includes("/provider/dist/"));
    const doors = ours.flatMap((f) =>
      ts
        .preProcessFile(f.text)
        .importedFiles.filter((i) => /^(zod|got)(\/|$)/.test(i.fileName))
        .map((i) => `${path.relative(path.join(REPO_ROOT, "provider"), f.fileName)} imports ${i.fileName}`),
    );
    expect(doors).toEqual([]);
    expect(files.filter((f) => internals.test(f)).length).toBe(0);
  });
});
