// A project as `pulumi new typescript` made it until 2026 (CommonJS, moduleResolution node, strict,
// no skipLibCheck), outside the repository, with the packed provider installed by npm and the
// newest @pulumi/pulumi: tsc passes and the Pulumi runtime's own TypeScript support runs it. The
// CLI may download plugins (from a release server): the dynamic classes must need none.
// The runtime runs the program transpile-only: tsc --noEmit below type-checks the same program with
// the same tsconfig (and, unlike ts-node, our .d.ts files too), so ts-node's own check (~6 CPU s on
// the first command) would prove nothing more. The runtime's default, type-checking mode runs once,
// in template.test.ts (the project `pulumi new` makes).
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { dependencyClosure, packageJson, TEMPLATE_TSCONFIG, TS_DEV_DEPENDENCIES } from "../helpers/consumer.js";
import { installedPlugins } from "../helpers/release-server.js";
import { deployLifecycle, numberConfig, program, PULUMI, typeCheck, useConsumer } from "./lifecycle.js";

vi.stubEnv("PULUMI_NODEJS_TRANSPILE_ONLY", "true");

const NUMBER = "+15550010001";
const ctx = useConsumer({
  name: "ts-cjs",
  project: (tarball) => ({
    files: {
      "Pulumi.yaml":
        "name: ts-cjs\nruntime: nodejs\ndescription: A TypeScript program as pulumi new typescript makes it\n",
      "package.json": packageJson({
        name: "ts-cjs",
        dependencies: { "@pulumi/pulumi": PULUMI.latest, "pulumi-voiceagent": `file:${tarball}` },
        devDependencies: TS_DEV_DEPENDENCIES,
      }),
      "tsconfig.json": TEMPLATE_TSCONFIG,
      "index.ts": program("ts"),
    },
  }),
  downloads: true,
  config: numberConfig("ts-cjs", NUMBER),
});

describe(`TypeScript, CommonJS (pulumi new typescript), npm, @pulumi/pulumi ${PULUMI.latest}`, () => {
  it("type-checks with tsc --noEmit", () => typeCheck(ctx), 60_000);

  it("installs what the program and the provider run, and nothing of the emulator or the tests", () => {
    for (const name of ["voiceagent-emulator", "fastify", "better-sqlite3", "vitest", "fast-check", "autocannon"]) {
      expect(existsSync(path.join(ctx.c.dir, "node_modules", name)), name).toBe(false);
    }
    const ours = dependencyClosure(ctx.c.dir, "pulumi-voiceagent");
    const sdk = new Set(dependencyClosure(ctx.c.dir, "@pulumi/pulumi"));
    const added = ours.filter((p) => !sdk.has(p));
    console.log(
      `pulumi-voiceagent installs ${ours.length} packages (${added.length} not already brought by @pulumi/pulumi: ` +
        `${added.join(", ")}); npm install took ${Math.round(ctx.installMs)} ms` +
        (ctx.installSeeded ? " (on a copy of an identical install)" : ""),
    );
    expect(ours.map((p) => p.replace(/@[^@]+$/, ""))).toEqual(expect.arrayContaining(["got", "zod", "p-limit"]));
    expect(ours.some((p) => p.startsWith("@pulumi/pulumi@"))).toBe(false);
  });

  it(
    "deploys: up, preview --expect-no-changes, a change in place, destroy",
    () => deployLifecycle(ctx, "ts-cjs", NUMBER),
    240_000,
  );

  it("the deployment on the dynamic classes downloaded no plugin: 0 requests to the release server, none installed", () => {
    expect(ctx.release!.server.requests).toEqual([]);
    expect(installedPlugins(ctx.release!.home)).toEqual([]);
  });
});
