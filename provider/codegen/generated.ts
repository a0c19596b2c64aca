import { readFileSync } from "node:fs";
import path from "node:path";
import { fleetSpecSource } from "./fleet-spec.js";
import { nativeFleetSource } from "./fleet-ts.js";
import { lookupsSource, nativeLookupsSource } from "./functions-ts.js";
import { describeFunctions, describeKinds, schemaText } from "./package-schema.js";
import { classSource, fileOf, indexSource, nativeSource, propertiesSource, providerArgsSource } from "./typescript.js";

/** One file generated from the kinds: where it goes and what it holds. */
export interface GeneratedFile {
  path: string;
  text: string;
}

/**
 * Every generated file under `providerDir` (the provider package's source folder), as it should be
 * committed: the package schema, and under generated/ each kind's public (dynamic) class and their
 * index, what each kind registers, the classes of the native entry (its Fleet from the schema's
 * component) and its Provider's arguments, both entries' functions, and the fleet's entry types.
 */
export function generatedFiles(providerDir: string): GeneratedFile[] {
  const packageJson = readFileSync(path.join(providerDir, "package.json"), "utf8");
  const kinds = describeKinds();
  const functions = describeFunctions();
  const generated = path.join(providerDir, "generated");
  return [
    { path: path.join(providerDir, "schema.json"), text: schemaText(packageJson) },
    ...kinds.map((k) => ({ path: path.join(generated, "dynamic", `${fileOf(k.kind)}.ts`), text: classSource(k) })),
    { path: path.join(generated, "dynamic", "index.ts"), text: indexSource(kinds) },
    { path: path.join(generated, "properties.ts"), text: propertiesSource(kinds) },
    { path: path.join(generated, "native.ts"), text: nativeSource(kinds) },
    { path: path.join(generated, "native-fleet.ts"), text: nativeFleetSource(kinds) },
    { path: path.join(generated, "provider-args.ts"), text: providerArgsSource() },
    { path: path.join(generated, "dynamic", "lookups.ts"), text: lookupsSource(functions) },
    { path: path.join(generated, "native-lookups.ts"), text: nativeLookupsSource(functions) },
    { path: path.join(generated, "fleet-spec.ts"), text: fleetSpecSource(kinds) },
  ];
}
