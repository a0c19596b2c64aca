// One version for npm, PyPI, Go and the plugin: provider/package.json's, which every generated
// file must carry; a release refuses to mix them.
import { readFileSync } from "node:fs";
import path from "node:path";

/** The release's version, after checking that every package states it. */
export function checkVersions(root: string): string {
  const read = (rel: string) => readFileSync(path.join(root, rel), "utf8");
  const version = (JSON.parse(read("provider/package.json")) as { version: string }).version;
  const found: Record<string, string | undefined> = {
    "package.json": (JSON.parse(read("package.json")) as { version: string }).version,
    "emulator/package.json": (JSON.parse(read("emulator/package.json")) as { version: string }).version,
    "policy/package.json": (JSON.parse(read("policy/package.json")) as { version: string }).version,
    "provider/schema.json": (JSON.parse(read("provider/schema.json")) as { version: string }).version,
    "sdk/python/pyproject.toml": /^\s*version = "([^"]+)"/m.exec(read("sdk/python/pyproject.toml"))?.[1],
    "sdk/go/voiceagent/pulumi-plugin.json": (
      JSON.parse(read("sdk/go/voiceagent/pulumi-plugin.json")) as { version: string }
    ).version,
  };
  const off = Object.entries(found).filter(([, v]) => v !== version);
  if (off.length > 0) {
    throw new Error(
      `provider/package.json says ${version}, but ${off.map(([f, v]) => `${f} says ${v ?? "nothing"}`).join(", ")}: ` +
        `bump them together (npm run gen, npm run gen:sdks)`,
    );
  }
  return version;
}
