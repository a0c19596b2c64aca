// A plain JavaScript project (CommonJS require, no TypeScript installed), outside the repository,
// with the packed provider installed by npm and the oldest @pulumi/pulumi we support (the lower
// end of the provider's peer range), run by today's CLI: up, preview, refresh and destroy. Without
// TypeScript in the project, @pulumi/pulumi's closure serializer parses our provider's code with
// the TypeScript 3.8 it vendors: the serialized shim must stay within what that parser reads.
import { describe, expect, it } from "vitest";
import { packageJson } from "../helpers/consumer.js";
import { deployOnce, numberConfig, program, PULUMI, useConsumer } from "./lifecycle.js";

const NUMBER = "+15550010003";

const ctx = useConsumer({
  name: "js",
  project: (tarball) => ({
    files: {
      "Pulumi.yaml": "name: js\nruntime: nodejs\ndescription: A JavaScript program\n",
      "package.json": packageJson({
        name: "js",
        main: "index.js",
        dependencies: { "@pulumi/pulumi": PULUMI.lowest, "pulumi-voiceagent": `file:${tarball}` },
      }),
      "index.js": program("js"),
    },
  }),
  config: numberConfig("js", NUMBER),
});

describe(`JavaScript, CommonJS, npm, @pulumi/pulumi ${PULUMI.lowest}`, () => {
  it("up binds; preview and refresh find no change; destroy unbinds (config changes: typescript-cjs)", async () => {
    await deployOnce(ctx, NUMBER);
    await ctx.c.pulumi(["preview", "--expect-no-changes"]);
    // The dynamic providers' read, run by this @pulumi/pulumi, finds each object as created.
    await ctx.c.pulumi(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
    expect(await ctx.c.destroy()).toEqual({ delete: 4 });
    expect((await ctx.client.numbers.get(NUMBER)).inbound_agent).toBeNull();
  }, 360_000);
});
