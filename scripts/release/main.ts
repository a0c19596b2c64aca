// `npm run release -- DIR [--platform linux-amd64 ...] [--plugins-only]`: writes into DIR what a
// release publishes: the plugin archive per platform (the CLI's names, the executable at the
// root with README, LICENSE and Node's license), the npm tarballs of both packages, the Python
// wheel and sdist, the Go SDK module as a module proxy serves it for the tag sdk/v<V> (DIR/goproxy,
// usable as GOPROXY=file://DIR/goproxy), schema.json, RELEASE-NOTES.md (CHANGELOG.md's section
// and the archive sizes) and SHA256SUMS over all of it. Files already in DIR stay and are summed
// (release.yml puts the macOS arm64 archive there first). Runs through scripts/run.sh.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeArchive, writeSums } from "./archive.js";
import { releaseNotes } from "./notes.js";
import { archiveName, PLATFORMS } from "./platforms.js";
import { buildExecutable } from "./sea.js";
import { checkVersions } from "./versions.js";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { platform: { type: "string", multiple: true }, "plugins-only": { type: "boolean", default: false } },
});
const dir = positionals[0];
if (!dir || positionals.length > 1) {
  console.error("usage: npm run release -- DIR [--platform linux-amd64 ...] [--plugins-only]");
  process.exit(2);
}
const out = path.resolve(dir);
const log = (line: string) => process.stderr.write(`[release] ${line}\n`);
const sh = (cmd: string, argv: string[], cwd = ROOT) =>
  execFileSync(cmd, argv, { cwd, stdio: ["ignore", "ignore", "inherit"] });

const version = checkVersions(ROOT);
const unknown = (args.platform ?? []).filter((id) => !PLATFORMS.some((p) => p.id === id));
if (unknown.length > 0)
  throw new Error(`unknown platform ${unknown.join(", ")}: one of ${PLATFORMS.map((p) => p.id).join(", ")}`);
const platforms = args.platform ? PLATFORMS.filter((p) => args.platform?.includes(p.id)) : PLATFORMS;
const nodeVersion = process.env.VOICEAGENT_NODE_VERSION;
if (!nodeVersion) throw new Error("VOICEAGENT_NODE_VERSION is not set: run through npm run release (scripts/run.sh)");
const bundle = path.join(ROOT, "provider", "dist", "plugin", "pulumi-resource-voiceagent.cjs");
if (!existsSync(bundle)) throw new Error(`no ${bundle}: scripts/run.sh builds it`);
const epoch = Number(
  process.env.SOURCE_DATE_EPOCH ??
    execFileSync("git", ["log", "-1", "--format=%ct"], { cwd: ROOT, encoding: "utf8" }).trim(),
);
const mtime = new Date(epoch * 1000);
mkdirSync(out, { recursive: true });

const skipped: string[] = [];
const work = mkdtempSync(path.join(os.tmpdir(), "va-release-"));
try {
  for (const p of platforms) {
    const exeDir = path.join(work, p.id);
    mkdirSync(exeDir);
    const archive = path.join(out, archiveName(p, version));
    const built = await buildExecutable(p, bundle, nodeVersion, exeDir);
    if ("skipped" in built) {
      // One built elsewhere (release.yml's macOS job) and put here first is kept and summed.
      if (existsSync(archive)) {
        log(`${p.id}: not built here (${built.skipped}); keeping ${path.basename(archive)} already in ${out}`);
      } else {
        log(`${p.id}: skipped: ${built.skipped}`);
        skipped.push(`${p.id}: ${built.skipped}`);
      }
      continue;
    }
    await writeArchive(
      archive,
      [
        { name: path.basename(built.file), source: built.file, mode: 0o755 },
        { name: "README.md", source: path.join(ROOT, "scripts", "release", "PLUGIN-README.md"), mode: 0o644 },
        { name: "LICENSE", source: path.join(ROOT, "provider", "LICENSE"), mode: 0o644 },
        ...(built.nodeLicense ? [{ name: "LICENSE.node", source: built.nodeLicense, mode: 0o644 }] : []),
      ],
      mtime,
    );
    log(
      `${path.basename(archive)}: Node ${built.nodeVersion}${
        built.signedWith ? `, signed by ` + `${built.signedWith}` : ""
      }, ${statSync(archive).size} bytes`,
    );
  }
  if (!args["plugins-only"]) {
    log("npm packages");
    sh("npm", ["pack", "--silent", "--workspaces", "--pack-destination", out]);
    log("Python wheel and sdist");
    const python = process.env.VOICEAGENT_PYTHON;
    if (!python) throw new Error("VOICEAGENT_PYTHON is not set: run through npm run release (scripts/run.sh)");
    sh("bash", [path.join(ROOT, "scripts", "build-wheel.sh"), out]);
    const src = path.join(work, "python");
    execFileSync("cp", ["-r", path.join(ROOT, "sdk", "python"), src]);
    sh(python, ["-c", "import sys; from setuptools import build_meta as b; b.build_sdist(sys.argv[1])", out], src);
    log(`Go module for sdk/v${version}`);
    sh("bash", [path.join(ROOT, "scripts", "pack-go-sdk.sh"), `v${version}`, path.join(out, "goproxy")]);
    copyFileSync(path.join(ROOT, "provider", "schema.json"), path.join(out, "schema.json"));
    const archives = readdirSync(out).filter(
      (f) => f.startsWith("pulumi-resource-voiceagent-") && f.endsWith(".tar.gz"),
    );
    const sizes = archives.sort().map((f) => ({ name: f, bytes: statSync(path.join(out, f)).size }));
    writeFileSync(
      path.join(out, "RELEASE-NOTES.md"),
      releaseNotes(readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8"), version, sizes, skipped),
    );
  }
  await writeSums(out);
  log(`wrote ${out}${skipped.length ? ` (${skipped.length} platform(s) skipped)` : ""}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
