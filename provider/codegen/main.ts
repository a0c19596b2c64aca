// `npm run gen`: rewrites every file generated from the kinds. Run it after changing a kind; the
// tests in test/codegen fail while a generated file is stale.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { generatedFiles } from "./generated.js";

// This file runs as provider/dist/codegen/main.js; the sources are two folders up.
const providerDir = path.resolve(__dirname, "..", "..");
for (const file of generatedFiles(providerDir)) {
  writeFileSync(file.path, file.text);
  console.log(`wrote ${path.relative(process.cwd(), file.path)}`);
}
