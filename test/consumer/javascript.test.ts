// A plain JavaScript project (CommonJS require, no TypeScript installed), outside the repository,
// with the packed provider installed by npm and the oldest @pulumi/pulumi we support. Without
// TypeScript in the project, @pulumi/pulumi's closure serializer parses our provider's code with
// the TypeScript 3.8 it vendors: the serialized shim must stay within what that parser reads.
import { describe, it } from "vitest";
import { packageJson } from "../helpers/consumer.js";
import { deployOnce, program, PULUMI, useConsumer } from "./lifecycle.js";

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
});

describe(`JavaScript, CommonJS, npm, @pulumi/pulumi ${PULUMI.lowest}`, () => {
  it(
    "deploys: its first up creates and binds (the rest of the lifecycle runs once, in typescript-cjs)",
    () => deployOnce(ctx, "js", "+15550010003"),
    240_000,
  );
});
