import { readFileSync } from "node:fs";
import path from "node:path";
import { lookupsSource, nativeLookupsSource } from "./functions-ts.js";
import { describeFunctions, describeKinds, schemaText } from "./package-schema.js";
import { classSource, declaredSource, fileOf, indexSource, nativeSource } from "./typescript.js";

/** One file generated from the kinds: where it goes and what it holds. */
export interface GeneratedFile {
  path: string;
  text: string;
}

/**
 * Every generated file under `providerDir` (the provider package's source folder), as it should be
 * committed: the package schema, each kind's public class, what each kind registers, the
 * resources' index, the classes of the native entry, and both entries' functions.
 */
export function generatedFiles(providerDir: string): GeneratedFile[] {
  const packageJson = readFileSync(path.join(providerDir, "package.json"), "utf8");
  const kinds = describeKinds();
  const functions = describeFunctions();
  const resources = path.join(providerDir, "resources");
  return [
    { path: path.join(providerDir, "schema.json"), text: schemaText(packageJson) },
    ...kinds.map((k) => ({ path: path.join(resources, `${fileOf(k.kind)}.ts`), text: classSource(k) })),
    { path: path.join(resources, "declared.ts"), text: declaredSource(kinds) },
    { path: path.join(resources, "index.ts"), text: indexSource(kinds) },
    { path: path.join(providerDir, "native", "resources.ts"), text: nativeSource(kinds) },
    { path: path.join(resources, "lookups.ts"), text: lookupsSource(functions) },
    { path: path.join(providerDir, "native", "lookups.ts"), text: nativeLookupsSource(functions) },
  ];
}
