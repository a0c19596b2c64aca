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
const hasSchema = existsSync(schemaFile);
if (!hasSchema) {
  process.stderr.write(
    `[bundle-plugin] ${schemaFile} does not exist yet: GetSchema will answer a schema with no resources\n`,
  );
}
const schema = hasSchema
  ? readFileSync(schemaFile, "utf8")
  : JSON.stringify({ name: "voiceagent", version, resources: {} });

/** Replaces plugin/embedded.ts (which reads the files at run time) with the two texts. */
const embed = {
  name: "embed",
  setup(b) {
    // The native classes (which Construct's Fleet declares) register with the plugin's version,
    // which they read from the package.json beside them: the bundle has none, so it is written in.
    b.onLoad({ filter: /[\\/]native[\\/]version\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const read = "ownManifest().version";
      if (!source.includes(read)) throw new Error(`${args.path} no longer reads ${read}: update bundle-plugin.mjs`);
      return { loader: "ts", contents: source.replace(read, JSON.stringify(version)) };
    });
    b.onLoad({ filter: /[\\/]plugin[\\/]embedded\.ts$/ }, () => ({
      loader: "js",
      contents: `exports.schemaText = () => ${JSON.stringify(schema)};\nexports.pluginVersion = () => ${JSON.stringify(version)};\n`,
    }));
  },
};

// The engine starts one plugin process per provider per command: Node's compile cache saves
// compiling the bundle on every start after the first. It applies to code compiled after it is
// enabled, so the file is a small loader holding the bundle as a string: it enables the cache and
// compiles the bundle as a CommonJS module under the file's own name (what require-from-string
// does). A string costs little to scan, where compiling the bundle twice (loading the file itself
// again) cost as much as the cache saved. Node reads an extensionless file as an ES module when
// the nearest package.json says "type": "module" (a PULUMI_HOME inside such a project), so the
// loader uses nothing that only CommonJS has.
const loader = (body) =>
  [
    "#!/usr/bin/env node",
    "'use strict';",
    "if (typeof process.getBuiltinModule !== 'function') {",
    "  process.stderr.write('pulumi-resource-voiceagent: needs Node.js 22.12 or later on PATH, found ' + process.version + '\\n');",
    "  process.exit(1);",
    "}",
    "{",
    "  const mod = process.getBuiltinModule('node:module');",
    "  const file = process.getBuiltinModule('node:fs').realpathSync(process.argv[1]);",
    "  try { mod.enableCompileCache?.(); } catch {}",
    "  const m = new mod.Module(file, null);",
    "  m.filename = file;",
    "  m.paths = mod.Module._nodeModulePaths(process.getBuiltinModule('node:path').dirname(file));",
    // Its own name in the cache: the loader itself is cached under the file's name.
    `  m._compile(${JSON.stringify(body)}, file + '.bundle.js');`,
    "}",
    "",
  ].join("\n");

// Construct (plugin/construct.ts, loaded on the first Construct only) runs the Fleet with the Node
// SDK's runtime. Of what that runtime requires, the TypeScript compiler serves only serializing
// closures (dynamic providers, which never run here) and would make the bundle five times larger:
// an empty module stands in for it.
const stub = {
  name: "stub",
  setup(b) {
    b.onResolve({ filter: /^typescript$/ }, () => ({ path: "typescript", namespace: "stub" }));
    b.onLoad({ filter: /.*/, namespace: "stub" }, () => ({ contents: "module.exports = {};", loader: "js" }));
  },
};

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
  plugins: [embed, stub],
  metafile: true,
});
// The TypeScript compiler (reached by any value import of "@pulumi/pulumi") made the bundle five
// times larger: refused here, naming who imported it, so no build ships it. @pulumi/pulumi's
// runtime is Construct's alone: reached from anywhere else, it is refused too.
const forbidden = (file) => /node_modules\/typescript\//.test(file);
const runtime = (file) => /node_modules\/@pulumi\/pulumi\/(?!proto\/)/.test(file);
const constructOnly = (file) =>
  /^(plugin\/construct\.ts|fleet\/|native\/|generated\/)/.test(path.relative(providerDir, path.resolve(file)));
// The edges into it from outside it: who brought it in.
const strays = Object.entries(result.metafile.inputs).flatMap(([file, input]) =>
  forbidden(file) || runtime(file)
    ? []
    : input.imports
        .filter((i) => forbidden(i.path) || (runtime(i.path) && !constructOnly(file)))
        .map((i) => `${file} imports ${i.path}`),
);
if (strays.length) {
  throw new Error(
    `the plugin would bundle @pulumi/pulumi's runtime (import only types from "@pulumi/pulumi" in code the plugin reaches):\n${strays.join("\n")}`,
  );
}
const [code] = result.outputFiles;
writeFileSync(out, loader(code.text));
chmodSync(out, 0o755);
// The same loader without its shebang: the main script of the single executables `npm run release`
// builds (scripts/release/sea.mjs). They embed their own Node; the loader still pays, because a V8
// code cache inside the executable differs from build to build (the archives must not) and Node's
// compile cache only serves code compiled after it is enabled.
writeFileSync(`${out}.cjs`, loader(code.text).replace(/^#!.*\n/, ""));
