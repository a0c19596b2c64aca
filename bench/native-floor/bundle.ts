// Builds the native floor plugin as the real one is shipped: one esbuild bundle (CommonJS,
// minified, its dependencies inside) started by an executable file named
// pulumi-resource-voiceagent that turns on Node's compile cache first, so the floor pays the same
// start-up costs as ours and no more. The folder is what Pulumi.yaml `plugins.providers[].path` names.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const PROVIDER = path.join(ROOT, "provider");

/** Bundles bench/native-floor/plugin.ts into a fresh temporary folder; returns the folder. */
export async function bundleNativeFloor(): Promise<string> {
  // esbuild is the provider workspace's devDependency (it bundles the real plugin).
  const { build }: typeof import("esbuild") = createRequire(path.join(PROVIDER, "package.json"))("esbuild");
  const manifest: unknown = JSON.parse(readFileSync(path.join(PROVIDER, "package.json"), "utf8"));
  const version =
    manifest && typeof manifest === "object" && "version" in manifest ? String(manifest.version) : "0.0.0";
  const dir = mkdtempSync(path.join(os.tmpdir(), "va-native-floor-"));
  await build({
    entryPoints: [path.join(ROOT, "bench", "native-floor", "plugin.ts")],
    outfile: path.join(dir, "bundle.cjs"),
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
    define: { NATIVE_FLOOR_VERSION: JSON.stringify(version) },
  });
  const launcher = path.join(dir, "pulumi-resource-voiceagent");
  writeFileSync(
    launcher,
    "#!/usr/bin/env node\n'use strict';\ntry { require('node:module').enableCompileCache?.(); } catch {}\nrequire('./bundle.cjs');\n",
  );
  chmodSync(launcher, 0o755);
  return dir;
}
