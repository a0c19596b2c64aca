// What `npm run release` writes (for this machine's platform, see release-setup.ts), checked
// against what the Pulumi CLI asks for: pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz with
// the executable at its root (sdk/go/common/workspace/plugins.go in pulumi v3.274.1), SHA256SUMS
// over every file, and the plugin archive the same bytes when built again from the same commit.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { afterAll, describe, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../helpers/consumer.js";

const dir = inject("releaseDir");
const platform = inject("releasePlatform");
const version = (JSON.parse(readFileSync(path.join(REPO_ROOT, "provider/package.json"), "utf8")) as { version: string })
  .version;
// The CLI's name for the asset, spelled out here rather than taken from the release script.
const archive = `pulumi-resource-voiceagent-v${version}-${platform}.tar.gz`;
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const scratch = mkdtempSync(path.join(os.tmpdir(), "va-release-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("npm run release", () => {
  it("writes the plugin archive under the CLI's name, the executable at its root beside README and the licenses", async () => {
    const entries: { path: string; mode: number; type: string }[] = [];
    await tar.t({
      file: path.join(dir, archive),
      onReadEntry: (e) => entries.push({ path: e.path, mode: e.mode ?? 0, type: e.type }),
    });
    expect(entries.map((e) => e.path)).toEqual(["pulumi-resource-voiceagent", "README.md", "LICENSE", "LICENSE.node"]);
    expect(entries.every((e) => e.type === "File")).toBe(true);
    expect(entries[0]!.mode & 0o777).toBe(0o755);
  });

  it("writes every other asset of a release: npm tarballs, wheel and sdist, the Go module as a proxy serves it, schema, notes", () => {
    const top = readdirSync(dir).sort();
    expect(top).toEqual(
      [
        archive,
        "RELEASE-NOTES.md",
        "SHA256SUMS",
        "goproxy",
        `pulumi-voiceagent-${version}.tgz`,
        `pulumi-voiceagent-policy-${version}.tgz`,
        `pulumi_voiceagent-${version}-py3-none-any.whl`,
        `pulumi_voiceagent-${version}.tar.gz`,
        "schema.json",
        `voiceagent-emulator-${version}.tgz`,
      ].sort(),
    );
    const mod = path.join(dir, "goproxy/github.com/pulumi-voiceagent/pulumi-voiceagent/sdk/@v");
    expect(readdirSync(mod).sort()).toEqual(["list", `v${version}.info`, `v${version}.mod`, `v${version}.zip`]);
    const notes = readFileSync(path.join(dir, "RELEASE-NOTES.md"), "utf8");
    expect(notes).toContain(archive);
    expect(readFileSync(path.join(REPO_ROOT, "CHANGELOG.md"), "utf8")).toContain(notes.split("\n")[0]);
  });

  it("SHA256SUMS names every file and each sum matches (what `sha256sum -c` checks)", () => {
    const lines = readFileSync(path.join(dir, "SHA256SUMS"), "utf8").trim().split("\n");
    const listed = new Map(lines.map((l) => [l.slice(66), l.slice(0, 64)]));
    const all = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter(
      (f) => statSync(path.join(dir, f)).isFile() && f !== "SHA256SUMS",
    );
    expect([...listed.keys()].sort()).toEqual(all.sort());
    for (const [file, sum] of listed) expect(sum, file).toBe(sha256(path.join(dir, file)));
  });

  // The second build below runs in the same checkout, so it cannot see what differs between two
  // clones of one commit; this can: nothing of the folder a build ran in may reach the executable.
  it("puts nothing of the checkout's or the build's folders into the executable", async () => {
    const out = path.join(scratch, "unpacked");
    mkdirSync(out);
    await tar.x({ file: path.join(dir, archive), cwd: out });
    const exe = readFileSync(path.join(out, "pulumi-resource-voiceagent"));
    for (const folder of [REPO_ROOT, path.join(os.tmpdir(), "va-")]) expect(exe.indexOf(folder), folder).toBe(-1);
  });

  it("builds the same plugin archive again, byte for byte", () => {
    const again = path.join(scratch, "again");
    execFileSync(
      "node",
      [path.join(REPO_ROOT, "dist/scripts/release/main.js"), again, "--platform", platform, "--plugins-only"],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, SOURCE_DATE_EPOCH: inject("releaseEpoch") },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    expect(readdirSync(again).sort()).toEqual([archive, "SHA256SUMS"].sort());
    expect(sha256(path.join(again, archive))).toBe(sha256(path.join(dir, archive)));
  }, 240_000);
});
