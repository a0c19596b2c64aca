// Each kind's and function's example, per language, lives in a file that compiles
// (provider/examples/<name>.ts, .py, .go; test/codegen/examples.test.ts compiles them) or, for
// Pulumi YAML (.yaml), that one `pulumi preview` of all of them together type-checks: the
// schema and the generated classes show the lines between its `example begin` and `example end`
// markers, so a snippet that names a property the SDK lacks fails a test, not a reader.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** An example in the SDKs other than TypeScript, each in that language's spelling. */
export interface SdkExamples {
  python: string;
  go: string;
  /** Pulumi YAML: a program's `resources:`/`variables:` sections. */
  yaml: string;
}

/** One kind's or function's example: TypeScript (the classes' `@example`), Python, Go and Pulumi YAML. */
export interface Examples {
  example: string;
  examples: SdkExamples;
}

/** The provider package's folder, found from this file whether it runs as source or from dist/. */
function providerDir(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return dir;
}

/**
 * The folders searched for examples, in order. A test kind (test/trial) adds its own folder:
 * its examples are no part of the package and do not compile against it.
 */
export const EXAMPLE_DIRS: string[] = [path.join(providerDir(), "examples")];

/** The file name of a kind or function: `PhoneNumber` → `phone-number`, `getVoice` → `get-voice`. */
export function exampleFileOf(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

const MARKER = /^\s*(?:\/\/|#) example (begin|end)\s*$/;

/** The lines between the markers of `text`, without the indentation they share. */
export function snippetOf(text: string, file: string): string {
  const lines = text.split("\n");
  const begin = lines.findIndex((l) => MARKER.exec(l)?.[1] === "begin");
  const end = lines.findIndex((l) => MARKER.exec(l)?.[1] === "end");
  if (begin < 0 || end <= begin) throw new Error(`${file}: needs an "example begin" line before an "example end" line`);
  const body = lines.slice(begin + 1, end);
  const indents = body.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)?.[0].length ?? 0);
  const cut = Math.min(...indents);
  return body.map((l) => l.slice(cut)).join("\n");
}

/** The example of the kind or function `name`, read from the first folder of EXAMPLE_DIRS holding it. */
export function examplesOf(name: string): Examples {
  const base = exampleFileOf(name);
  const dir = EXAMPLE_DIRS.find((d) => existsSync(path.join(d, `${base}.ts`)));
  if (!dir) throw new Error(`${name} has no example: write ${base}.ts, .py, .go and .yaml in ${EXAMPLE_DIRS[0]}`);
  const read = (ext: string) => {
    const file = path.join(dir, `${base}.${ext}`);
    return snippetOf(readFileSync(file, "utf8"), file);
  };
  return { example: read("ts"), examples: { python: read("py"), go: read("go"), yaml: read("yaml") } };
}
