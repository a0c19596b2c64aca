// A TypeScript project that is an ES module ("type": "module", NodeNext), outside the repository,
// with the packed provider installed by npm and the newest @pulumi/pulumi. Named imports of our
// CommonJS entry work through Node's CommonJS named-export detection.
import { describe, it, vi } from "vitest";
import { packageJson, TS_DEV_DEPENDENCIES } from "../helpers/consumer.js";
import { deployOnce, numberConfig, program, PULUMI, typeCheck, useConsumer } from "./lifecycle.js";

const tsconfig = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    sourceMap: true,
  },
  files: ["index.ts"],
};

// Transpile-only: tsc --noEmit below type-checks the program with the same tsconfig (ts-node's own
// check, ~6 CPU s on the first command, would prove nothing more; the runtime's default,
// type-checking mode runs in template.test.ts).
vi.stubEnv("PULUMI_NODEJS_TRANSPILE_ONLY", "true");

const NUMBER = "+15550010002";
const ctx = useConsumer({
  name: "ts-esm",
  project: (tarball) => ({
    files: {
      "Pulumi.yaml": "name: ts-esm\nruntime: nodejs\ndescription: A TypeScript program that is an ES module\n",
      "package.json": packageJson({
        name: "ts-esm",
        type: "module",
        dependencies: { "@pulumi/pulumi": PULUMI.latest, "pulumi-voiceagent": `file:${tarball}` },
        devDependencies: TS_DEV_DEPENDENCIES,
      }),
      "tsconfig.json": `${JSON.stringify(tsconfig, null, 4)}\n`,
      "index.ts": program("esm"),
    },
  }),
  config: numberConfig("ts-esm", NUMBER),
});

describe(`TypeScript, ES module (NodeNext), npm, @pulumi/pulumi ${PULUMI.latest}`, () => {
  it("type-checks with tsc --noEmit", () => typeCheck(ctx), 60_000);

  it(
    "deploys: its first up creates and binds (the rest of the lifecycle runs once, in typescript-cjs)",
    () => deployOnce(ctx, NUMBER),
    240_000,
  );
});
