// Bundles the native provider plugin into ONE self-contained executable file,
// provider/dist/plugin/pulumi-resource-voiceagent (shebang, mode 755): its code, @grpc/grpc-js,
// the proto modules @pulumi/pulumi ships, zod, got, and the package schema and version as
// constants. `pulumi plugin install resource voiceagent <v> --file <it>` copies that file alone,
// and Pulumi.yaml `plugins.providers[].path` points at its folder, so nothing may be needed beside it.
// Usage: node scripts/bundle-plugin.mjs [provider folder]   (run by va_build and by the package's prepack)
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const providerDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "..", "provider"));
// esbuild is a devDependency of the provider workspace.
const { build } = createRequire(path.join(providerDir, "package.json"))("esbuild");
const out = path.join(providerDir, "dist", "plugin", "pulumi-resource-voiceagent");
const version = JSON.parse(readFileSync(path.join(providerDir, "package.json"), "utf8")).version;
const schemaFile = path.join(providerDir, "schema.json");
const schema = existsSync(schemaFile)
  ? readFileSync(schemaFile, "utf8")
  : (process.stderr.write(`[bundle-plugin] ${schemaFile} does not exist yet: GetSchema will answer a schema with no resources\n`),
    JSON.stringify({ name: "voiceagent", version, resources: {} }));

/** Replaces plugin/embedded.ts (which reads the files at run time) with the two texts. */
const embed = {
  name: "embed",
  setup(b) {
    b.onLoad({ filter: /[\\/]plugin[\\/]embedded\.ts$/ }, () => ({
      loader: "js",
      contents: `exports.schemaText = () => ${JSON.stringify(schema)};\nexports.pluginVersion = () => ${JSON.stringify(version)};\n`,
    }));
  },
};

// The engine starts one plugin process per provider per command: Node's compile cache saves
// compiling the bundle on every start after the first. It only applies to modules loaded after it
// is enabled, so the file enables it and loads itself once more. Node reads an extensionless file
// as an ES module when the nearest package.json says "type": "module" (a PULUMI_HOME inside such
// a project, for one), where `require` and a top-level `return` do not exist: so the CommonJS
// bundle runs inside a function given `require` either way, and only CommonJS takes the cache path.
const head = [
  "#!/usr/bin/env node",
  "if (typeof require === 'function' && !globalThis.__voiceagentPlugin) {",
  "  globalThis.__voiceagentPlugin = true;",
  "  try { require('node:module').enableCompileCache?.(); } catch {}",
  "  delete require.cache[__filename];",
  "  require(__filename);",
  "} else (function (require, module, exports, __filename, __dirname) {",
].join("\n");
const tail = [
  "})(...(typeof require === 'function'",
  "  ? [require, module, exports, __filename, __dirname]",
  "  : ((file) => [process.getBuiltinModule('node:module').createRequire(file), { exports: {} }, {}, file, process.getBuiltinModule('node:path').dirname(file)])(",
  "      process.getBuiltinModule('node:fs').realpathSync(process.argv[1]))));",
  "",
].join("\n");

mkdirSync(path.dirname(out), { recursive: true });
const result = await build({
  entryPoints: [path.join(providerDir, "plugin", "main.ts")],
  bundle: true,
  write: false,
  platform: "node",
  target: "node22",
  format: "cjs",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [embed],
});
const [code] = result.outputFiles;
writeFileSync(out, `${head}\n${code.text}${tail}`);
chmodSync(out, 0o755);
