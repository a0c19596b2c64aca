// A folder of prepared npm installs for this test run (vitest globalSetup): consumer projects with
// the same dependencies start from a copy of the first one's node_modules before their own
// `npm install` (test/helpers/consumer.ts, INSTALL_SEEDS_ENV says why). One folder per run, removed
// at its end: each prepared install weighs ~150 MB, and the tarball it holds changes with every build.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { INSTALL_SEEDS_ENV } from "./helpers/consumer.js";

export default function setup(): () => void {
  // `VOICEAGENT_TEST_INSTALL_SEEDS=off npm test`: every project installs from scratch (to measure the difference).
  if (process.env[INSTALL_SEEDS_ENV] === "off") return () => {};
  const dir = mkdtempSync(path.join(os.tmpdir(), "va-install-seeds-"));
  process.env[INSTALL_SEEDS_ENV] = dir;
  return () => {
    delete process.env[INSTALL_SEEDS_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}
