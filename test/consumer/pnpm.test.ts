// pnpm's strict layout: our package's real folder is node_modules/.pnpm/pulumi-voiceagent@.../,
// where only its own dependencies and its peer (the program's @pulumi/pulumi, linked by pnpm) are
// visible, and nothing of ours is hoisted. The project uses the settings of today's `pulumi new
// typescript` (module and moduleResolution nodenext, CommonJS package) and the oldest
// @pulumi/pulumi we support, and is installed by `pulumi install` (our language host runs pnpm, as
// Pulumi.yaml's packagemanager says). The dynamic providers still load by package name.
import { lstatSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { packageJson, REPO_ROOT, TS_DEV_DEPENDENCIES } from "../helpers/consumer.js";
import { deployOnce, numberConfig, program, PULUMI, typeCheck, useConsumer } from "./lifecycle.js";

// Today's `pulumi new typescript` settings, as our template carries them.
const tsconfig = readFileSync(path.join(REPO_ROOT, "templates/voiceagent-typescript/tsconfig.json"), "utf8");

// Transpile-only: tsc --noEmit below type-checks the program with the same tsconfig (ts-node's own
// check, ~6 CPU s on the first command, would prove nothing more; the runtime's default,
// type-checking mode runs in template.test.ts).
vi.stubEnv("PULUMI_NODEJS_TRANSPILE_ONLY", "true");

const NUMBER = "+15550010004";
const ctx = useConsumer({
  name: "pnpm",
  project: (tarball) => ({
    installer: "pulumi install",
    files: {
      "Pulumi.yaml":
        "name: pnpm\nruntime:\n  name: nodejs\n  options:\n    packagemanager: pnpm\ndescription: A TypeScript program installed by pnpm\n",
      "package.json": packageJson({
        name: "pnpm",
        dependencies: { "@pulumi/pulumi": PULUMI.lowest, "pulumi-voiceagent": `file:${tarball}` },
        devDependencies: TS_DEV_DEPENDENCIES,
      }),
      "tsconfig.json": tsconfig,
      "index.ts": program("ts"),
    },
  }),
  config: numberConfig("pnpm", NUMBER),
});

describe(`TypeScript (nodenext), pnpm, @pulumi/pulumi ${PULUMI.lowest}`, () => {
  it("lays our package out strictly: a symlink into .pnpm, no hoisted got or zod", () => {
    const ours = path.join(ctx.c.dir, "node_modules/pulumi-voiceagent");
    expect(lstatSync(ours).isSymbolicLink()).toBe(true);
    expect(() => lstatSync(path.join(ctx.c.dir, "node_modules/zod"))).toThrow(/ENOENT/);
    expect(() => lstatSync(path.join(ctx.c.dir, "node_modules/got"))).toThrow(/ENOENT/);
  });

  it("type-checks with tsc --noEmit", () => typeCheck(ctx), 60_000);

  it(
    "deploys: its first up creates and binds (the rest of the lifecycle runs once, in typescript-cjs)",
    () => deployOnce(ctx, NUMBER),
    240_000,
  );
});
