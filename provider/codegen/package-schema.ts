import { z } from "zod";
import { FUNCTIONS } from "../resources/functions/index.js";
import { KINDS } from "../resources/kinds/index.js";
import { describeKind, type KindDescription } from "./describe.js";
import { describeFunction, type FunctionDescription } from "./describe-function.js";
import { buildSchema } from "./schema.js";

const PackageJsonSchema = z.object({
  version: z.string(),
  description: z.string(),
  keywords: z.array(z.string()),
  license: z.string(),
});

/** Every kind of the registry, described. */
export function describeKinds(): KindDescription[] {
  return KINDS.map((k) => describeKind(k.info));
}

/** Every function of the registry, described. */
export function describeFunctions(): FunctionDescription[] {
  return FUNCTIONS.map((f) => describeFunction(f.info));
}

/** The schema's text as `npm run gen` writes it, from the kinds and the text of provider/package.json. */
export function schemaText(packageJson: string): string {
  const pkg = PackageJsonSchema.parse(JSON.parse(packageJson));
  return `${JSON.stringify(buildSchema(describeKinds(), pkg, describeFunctions()), null, 2)}\n`;
}
