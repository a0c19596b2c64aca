import { readFileSync } from "node:fs";
import path from "node:path";
import { schemaText } from "./package-schema.js";

/** One file generated from the kinds: where it goes and what it holds. */
export interface GeneratedFile {
  path: string;
  text: string;
}

/** Every generated file under `providerDir` (the provider package's source folder), as it should be committed. */
export function generatedFiles(providerDir: string): GeneratedFile[] {
  const packageJson = readFileSync(path.join(providerDir, "package.json"), "utf8");
  return [{ path: path.join(providerDir, "schema.json"), text: schemaText(packageJson) }];
}
