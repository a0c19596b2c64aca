import { readFileSync } from "node:fs";
import path from "node:path";

// What the plugin ships inside itself. Run from the TypeScript build (tests, development), both
// are read from the package folder; the bundle (scripts/bundle-plugin.mjs) replaces this module
// with the two texts as constants, so the single-file plugin needs nothing beside it.

const packageDir = path.join(__dirname, "..", "..");

/** The package schema (provider/schema.json) as text. */
export function schemaText(): string {
  return readFileSync(path.join(packageDir, "schema.json"), "utf8");
}

/** The plugin's version: the npm package's. */
export function pluginVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8"));
  const version = manifest && typeof manifest === "object" && "version" in manifest ? manifest.version : undefined;
  return typeof version === "string" ? version : "0.0.0";
}
