import { PACKAGE_VERSION } from "../client/index.js";
import { stringLiteral } from "./literal.js";
import type { PullPlan } from "./plan.js";
import { renderProgram } from "./render.js";
import { slug } from "./names.js";

/**
 * The @pulumi/pulumi the pulled project asks for: the newest this package is tested with (versions.json
 * `nodejs`; test/repo/versions.test.ts checks they agree), or a later 3.x.
 */
export const PULLED_PULUMI_RANGE = "^3.276.0";

/**
 * A Pulumi project name from a folder name: Pulumi allows letters, digits, `-`, `_` and `.`; the
 * slug keeps it readable and valid whatever the folder is called.
 */
export function projectName(folder: string): string {
  return slug(folder, 8).slice(0, 100) || "voiceagent-pulled";
}

/**
 * The files of a pulled project, as `pulumi new typescript` lays them out (CommonJS, strict,
 * `main: index.ts` run by Pulumi's TypeScript support), by relative path.
 */
export function projectFiles(plan: PullPlan, name: string, imported = false): Map<string, string> {
  const description = "Adopted from a live voice agent account by `voiceagent pull`";
  // JSON strings are valid YAML double-quoted scalars: no value can break the document.
  const pulumiYaml = [
    `name: ${stringLiteral(name)}`,
    `description: ${stringLiteral(description)}`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    packagemanager: npm",
    // The native program's plugin ships in the package: the engine runs it from node_modules.
    ...(imported
      ? [
          "plugins:",
          "  providers:",
          "    - name: voiceagent",
          "      path: ./node_modules/pulumi-voiceagent/dist/plugin",
        ]
      : []),
    "",
  ].join("\n");
  const packageJson = {
    name,
    main: "index.ts",
    private: true,
    devDependencies: { "@types/node": "^22.0.0", typescript: "^5.0.0" },
    dependencies: { "@pulumi/pulumi": PULLED_PULUMI_RANGE, "pulumi-voiceagent": `^${PACKAGE_VERSION}` },
  };
  const tsconfig = {
    compilerOptions: {
      strict: true,
      outDir: "bin",
      target: "es2020",
      module: "commonjs",
      moduleResolution: "node",
      sourceMap: true,
      experimentalDecorators: true,
      pretty: true,
      noFallthroughCasesInSwitch: true,
      noImplicitReturns: true,
      forceConsistentCasingInFileNames: true,
    },
    files: ["index.ts"],
  };
  return new Map([
    ["Pulumi.yaml", pulumiYaml],
    ["package.json", `${JSON.stringify(packageJson, null, 2)}\n`],
    ["tsconfig.json", `${JSON.stringify(tsconfig, null, 4)}\n`],
    [".gitignore", "/bin/\n/node_modules/\n"],
    ["index.ts", renderProgram(plan, imported)],
  ]);
}
