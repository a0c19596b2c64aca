import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { VERSIONS } from "./helpers/versions.js";

/**
 * Prints the Pulumi CLI and @pulumi/pulumi versions and fails the run if either is not the one
 * versions.json pins (the two are independent: a user's CLI and SDK rarely match).
 */
export default function setup(): void {
  const require = createRequire(import.meta.url);
  const sdk = (require("@pulumi/pulumi/package.json") as { version: string }).version;
  const cli = execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim();
  console.log(`Pulumi CLI ${cli}; @pulumi/pulumi ${sdk}`);
  if (cli !== `v${VERSIONS.cli}` || sdk !== VERSIONS.nodejs) {
    throw new Error(
      `pulumi on PATH is ${cli} and @pulumi/pulumi is ${sdk}, but versions.json pins CLI ${VERSIONS.cli} and ` +
        `@pulumi/pulumi ${VERSIONS.nodejs}: run the tests through npm test (its setup builds and installs them)`,
    );
  }
}
