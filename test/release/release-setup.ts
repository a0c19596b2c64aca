// Runs `npm run release` once per test run (vitest globalSetup), for this machine's platform only,
// and hands the folder to every test file through inject("releaseDir"): the SDK tests install the
// plugin from it through the CLI's own download, the release tests check its archives. Kept under
// the OS temp folder keyed by a hash of what goes into it, so runs with the same build share it.
import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { hostPlatform } from "../../scripts/release/platforms.js";
import { providerContentHash, pruneCache, REPO_ROOT, touchCacheEntry } from "../helpers/consumer.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Absolute path of a folder `npm run release -- DIR --platform <this machine's>` wrote. */
    releaseDir: string;
    /** This machine's platform in the CLI's words (`linux-amd64`). */
    releasePlatform: string;
    /** The SOURCE_DATE_EPOCH it was built with (the commit's time then), for building it again. */
    releaseEpoch: string;
  }
}

/** What the release folder is made from, hashed. */
function releaseInputsHash(epoch: string): string {
  // The epoch too: the archives' entries are dated with it.
  const hash = createHash("sha256")
    .update(providerContentHash())
    .update(providerContentHash("policy"))
    .update(process.env.VOICEAGENT_NODE_VERSION ?? "")
    .update(epoch);
  const files = (dir: string): string[] =>
    readdirSync(path.join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.parentPath.includes("__pycache__"))
      .map((e) => path.relative(REPO_ROOT, path.join(e.parentPath, e.name)));
  const inputs = [
    "CHANGELOG.md",
    "provider/schema.json",
    "emulator/package.json",
    "provider/dist/plugin/pulumi-resource-voiceagent.cjs",
    ...files("sdk"),
    ...files("dist/scripts/release"),
    ...files("scripts/release"),
  ];
  for (const f of inputs.sort()) hash.update(f).update(readFileSync(path.join(REPO_ROOT, f)));
  return hash.digest("hex").slice(0, 16);
}

/** Builds (or reuses) the release folder and provides its path. */
export default function setup(project: TestProject): void {
  const platform = hostPlatform();
  if (!platform) throw new Error(`no release platform for ${process.platform}-${process.arch}`);
  const started = performance.now();
  // The commit's time, as the release script takes it, fixed here: a commit made while the tests
  // run must not change what the second build is compared with.
  const epoch = execFileSync("git", ["log", "-1", "--format=%ct"], { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  const dir = path.join(os.tmpdir(), "pulumi-voiceagent-release", releaseInputsHash(epoch));
  touchCacheEntry(dir);
  if (!existsSync(path.join(dir, "SHA256SUMS"))) {
    const staging = `${dir}.tmp-${process.pid}-${randomUUID().slice(0, 8)}`;
    execFileSync("node", [path.join(REPO_ROOT, "dist/scripts/release/main.js"), staging, "--platform", platform.id], {
      cwd: REPO_ROOT,
      env: { ...process.env, SOURCE_DATE_EPOCH: epoch },
      stdio: ["ignore", "ignore", "inherit"],
    });
    try {
      renameSync(staging, dir);
    } catch {
      // Another run built the same inputs first: theirs is identical.
      rmSync(staging, { recursive: true, force: true });
    }
  }
  pruneCache(path.dirname(dir), dir);
  console.log(`release folder ${dir} (${Math.round(performance.now() - started)} ms)`);
  project.provide("releaseDir", dir);
  project.provide("releasePlatform", platform.id);
  project.provide("releaseEpoch", epoch);
}
