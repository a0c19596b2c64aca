// The plugin as a Node single executable application (https://nodejs.org/api/single-executable-applications.html):
// Node's official binary for the platform with the bundled plugin injected as its main script, so
// a machine needs no Node to run it. One blob serves every platform of one Node version: with
// the snapshot and the code cache off it holds only the script (Node's docs: what cross-platform
// builds need), and it is the same bytes on every build, which the archives must be.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "postject";
import { blobNode, targetNode, targetVersion } from "./node-binary.js";
import { executableName, type Platform } from "./platforms.js";
import { macSigner } from "./sign.js";

/** The fuse Node's binaries carry, flipped by the injection (Node's docs name it). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** A built executable, or why the platform was skipped. */
export type Built =
  | { file: string; nodeLicense?: string; nodeVersion: string; signedWith?: string }
  | { skipped: string };

const blobs = new Map<string, Buffer>();

/** The preparation blob of the bundle for one Node version, written by that version of Node. */
function blobFor(bundle: string, version: string): Buffer {
  const cached = blobs.get(version);
  if (cached) return cached;
  const work = mkdtempSync(path.join(os.tmpdir(), "va-sea-"));
  try {
    // The blob keeps `main` as written (Node's SeaResource code_path): an absolute path would put
    // the checkout's folder into the executable, so two clones of one commit would build
    // different archives and the builder's paths would ship. A name relative to the working
    // folder is the same everywhere.
    const main = path.basename(bundle);
    copyFileSync(bundle, path.join(work, main));
    writeFileSync(
      path.join(work, "sea-config.json"),
      JSON.stringify({
        main,
        output: "sea-prep.blob",
        disableExperimentalSEAWarning: true,
        useSnapshot: false,
        useCodeCache: false,
      }),
    );
    execFileSync(blobNode(version), ["--experimental-sea-config", "sea-config.json"], {
      cwd: work,
      stdio: ["ignore", "ignore", "inherit"],
    });
    const blob = readFileSync(path.join(work, "sea-prep.blob"));
    blobs.set(version, blob);
    return blob;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The license of Node's binary: its package's, else the one beside the running Node. */
function nodeLicense(own: string | undefined, binary: string): string | undefined {
  if (own) return own;
  const beside = path.join(path.dirname(binary), "..", "LICENSE");
  return existsSync(beside) ? beside : undefined;
}

/**
 * Builds `p`'s executable into `outDir` from `bundle` (provider/dist/plugin/pulumi-resource-voiceagent.cjs),
 * on Node `projectNode` (or the platform's pinned one). Skips, saying why, a platform whose Node
 * is not to be had here or whose Mach-O executable cannot be signed here (macOS kills an
 * arm64 executable without a valid signature, and the injection invalidates Node's).
 */
export async function buildExecutable(
  p: Platform,
  bundle: string,
  projectNode: string,
  outDir: string,
): Promise<Built> {
  const version = targetVersion(p, projectNode);
  const node = targetNode(p, version);
  if (!node)
    return {
      skipped: `no Node ${version} for ${p.id} in the npm registry: build it on ${p.id} itself (release.yml's macOS job)`,
    };
  const signer = p.macho ? macSigner() : undefined;
  if (p.macho && !signer)
    return { skipped: `no Mach-O signer here (rcodesign on PATH or RCODESIGN, or macOS's codesign)` };
  const file = path.join(outDir, executableName(p));
  copyFileSync(node.binary, file);
  chmodSync(file, 0o755);
  signer?.unsign?.(file);
  await inject(file, "NODE_SEA_BLOB", blobFor(bundle, version), {
    sentinelFuse: SEA_FUSE,
    ...(p.macho ? { machoSegmentName: "NODE_SEA" } : {}),
  });
  if (signer) signer.sign(file);
  const license = nodeLicense(node.license, node.binary) ?? nodeLicense(undefined, blobNode(version));
  return {
    file,
    nodeVersion: version,
    ...(license ? { nodeLicense: license } : {}),
    ...(signer ? { signedWith: signer.name } : {}),
  };
}
