import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

/** Prints the Pulumi CLI version and fails the run if it is not the pinned @pulumi/pulumi's. */
export default function setup(): void {
  const require = createRequire(import.meta.url);
  const sdk = (require("@pulumi/pulumi/package.json") as { version: string }).version;
  const cli = execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim();
  console.log(`Pulumi CLI ${cli}; @pulumi/pulumi ${sdk}`);
  if (cli !== `v${sdk}`) {
    throw new Error(`pulumi on PATH is ${cli}, but @pulumi/pulumi is ${sdk}: run the tests through npm test`);
  }
}
