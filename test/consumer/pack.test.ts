// What `npm pack` ships for each package: compiled JavaScript and declarations, README, LICENSE
// and package.json; never tests, source maps, build caches, Pulumi state or stack files, or
// anything that looks like a credential. Checked on the real folders and on a copy salted with
// decoys, so the `files` rules are shown to exclude them rather than merely not meeting them.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { consumerEnv, ok, REPO_ROOT, run } from "../helpers/consumer.js";

interface DryRun {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string }[];
}

async function dryRun(dir: string): Promise<DryRun> {
  const r = ok(
    "npm pack --dry-run",
    await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"], {
      cwd: dir,
      env: consumerEnv({}),
    }),
  );
  const [result] = JSON.parse(r.stdout) as DryRun[];
  if (!result) throw new Error(`npm pack --dry-run printed nothing in ${dir}`);
  return result;
}

// The native plugin ships as one bundled executable without an extension (scripts/bundle-plugin.mjs).
const PLUGIN = "dist/plugin/pulumi-resource-voiceagent";
const allowed =
  /^(dist\/.+\.(js|d\.ts)|dist\/plugin\/pulumi-resource-voiceagent|README\.md|LICENSE|package\.json|PulumiPolicy\.yaml)$/;
const secretLike = [
  /va_[A-Za-z0-9_-]{24}/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\bpul-[0-9a-f]{40}\b/,
  /upgrade-fixture-token/,
  /encryptionsalt:/,
];

const scratch = mkdtempSync(path.join(os.tmpdir(), "va-pack-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(["provider", "emulator", "policy"])("npm pack of %s/", (workspace) => {
  const dir = path.join(REPO_ROOT, workspace);

  it("ships only compiled entry points, declarations, README, LICENSE and package.json", async () => {
    const pack = await dryRun(dir);
    const files = pack.files.map((f) => f.path).sort();
    console.log(`${pack.filename}: ${pack.size} bytes packed, ${pack.unpackedSize} unpacked, ${pack.entryCount} files`);
    expect(files.filter((f) => !allowed.test(f))).toEqual([]);
    expect(files).toContain("LICENSE");
    if (workspace === "provider" || existsSync(path.join(dir, "README.md"))) expect(files).toContain("README.md");
    // Every public entry point has its declarations, and every file has a source (no stale build output).
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
      exports: Record<string, string | Record<string, string>>;
    };
    for (const target of Object.values(manifest.exports).filter((t) => typeof t === "object")) {
      expect(files).toContain(path.normalize(target.types ?? ""));
      expect(files).toContain(path.normalize(target.default ?? ""));
    }
    if (workspace === "provider") expect(files).toContain(PLUGIN);
    const orphans = files.filter(
      (f) =>
        f.startsWith("dist/") &&
        f !== PLUGIN &&
        !existsSync(path.join(dir, f.replace(/^dist\//, "").replace(/\.(d\.ts|js)$/, ".ts"))),
    );
    expect(orphans, "built files whose source is gone").toEqual([]);
    for (const f of files) {
      const text = readFileSync(path.join(dir, f), "utf8");
      expect(secretLike.filter((re) => re.test(text)).map(String), f).toEqual([]);
    }
  });

  it("leaves out tests, maps, build caches, Pulumi state, stack files and env files put beside the build", async () => {
    const copy = path.join(scratch, workspace);
    cpSync(dir, copy, { recursive: true, filter: (src) => !src.includes("node_modules") });
    const decoys = [
      "dist/index.test.js",
      "dist/index.js.map",
      "dist/.tsbuildinfo",
      "dist/fixtures/state.json",
      ".pulumi-state/stacks/dev.json",
      ".pulumi-home/credentials.json",
      "Pulumi.dev.yaml",
      ".env",
      ".npmrc",
      "test/index.test.ts",
    ];
    for (const d of decoys) {
      mkdirSync(path.dirname(path.join(copy, d)), { recursive: true });
      writeFileSync(path.join(copy, d), "voiceagent:token: secret\n");
    }
    const files = (await dryRun(copy)).files.map((f) => f.path);
    expect(files.filter((f) => decoys.includes(f))).toEqual([]);
  });
});

describe("the tarball the tests install", () => {
  it("holds exactly what the dry run of provider/ lists", async () => {
    const tarball = inject("providerTarball");
    const listed = ok("tar", await run("tar", ["-tzf", tarball], { cwd: scratch }))
      .stdout.trim()
      .split("\n")
      .map((f) => f.replace(/^package\//, ""));
    const pack = await dryRun(path.join(REPO_ROOT, "provider"));
    expect(listed.sort()).toEqual(pack.files.map((f) => f.path).sort());
  });
});
