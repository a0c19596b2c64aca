// The supported @pulumi/pulumi range: declared once (provider/package.json peerDependencies),
// enforced when the root entry loads. A program with an older SDK fails with one line naming both
// versions before any of our resources is registered and before any request.
import { describe, expect, it } from "vitest";
import { packageJson } from "../helpers/consumer.js";
import { ownManifest, parseRange, parseVersion, satisfies, unsupportedMessage } from "../../provider/version-check.js";
import { program, PULUMI, useConsumer } from "./lifecycle.js";

describe("the range check", () => {
  const range = parseRange(">=3.139.0 <4");
  const ok = (v: string) => satisfies(parseVersion(v) ?? { core: [0, 0, 0], prerelease: false }, range);

  it("accepts the lower bound and every later 3.x, refuses older, pre-releases of the bound and 4.x", () => {
    expect(["3.139.0", "3.139.1", "3.270.0", "3.1390.0", "3.300.0-alpha.1"].filter(ok)).toHaveLength(5);
    expect(["3.138.9", "3.0.0", "2.999.0", "3.139.0-alpha.1", "4.0.0", "4.0.0-beta"].filter(ok)).toEqual([]);
  });

  it("is read from our package.json, whose range is the one the consumer tests install", () => {
    const own = ownManifest();
    expect(own.range.text).toBe(`>=${PULUMI.lowest} <4`);
    expect(parseVersion(PULUMI.tooOld) && satisfies(parseVersion(PULUMI.tooOld)!, own.range)).toBe(false);
  });

  it("refuses a range of another shape, naming it", () => {
    // Names the value it refused and shows the shape it wants.
    expect(() => parseRange("^3.139.0")).toThrow(/"\^3\.139\.0"/);
    expect(() => parseRange("^3.139.0")).toThrow(/>=\d+\.\d+\.\d+ <\d/);
  });

  it("says, in one line, both versions, that nothing happened, and what to run", () => {
    const old = unsupportedMessage("0.2.0", range, "3.100.0", "/p/node_modules/@pulumi/pulumi");
    // Both versions and the range, where the old one was found, that nothing happened, the command to run.
    for (const fact of [
      "0.2.0",
      ">=3.139.0 <4",
      "3.100.0",
      "/p/node_modules/@pulumi/pulumi",
      "npm install @pulumi/pulumi@^3.139.0",
    ]) {
      expect(old).toContain(fact);
    }
    const NOTHING_HAPPENED = /nothing (was )?(registered|sent|done)|no request/i;
    expect(old).toMatch(NOTHING_HAPPENED);
    // Too new: names the version found and points at another release of this package, not at npm install.
    const tooNew = unsupportedMessage("0.2.0", range, "4.1.0", "/p");
    expect(tooNew).toContain("4.1.0");
    expect(tooNew).toMatch(/pulumi-voiceagent (release|version)/);
    expect(tooNew).not.toContain("npm install");
    expect(tooNew).toMatch(NOTHING_HAPPENED);
    // Missing: names where it looked and the command that installs it.
    const missing = unsupportedMessage("0.2.0", range, undefined, "/p");
    expect(missing).toMatch(/ \/p\b/);
    expect(missing).toContain("npm install @pulumi/pulumi");
    expect(missing).toMatch(NOTHING_HAPPENED);
    expect(unsupportedMessage("0.2.0", range, "3.139.0", "/p")).toBeUndefined();
    for (const m of [old, unsupportedMessage("0.2.0", range, "4.1.0", "/p")]) expect(m).not.toContain("\n");
  });
});

// pnpm installs despite the peer mismatch (it warns), as yarn and `npm --legacy-peer-deps` do.
const ctx = useConsumer({
  name: "old-sdk",
  project: (tarball) => ({
    installer: "pnpm",
    files: {
      "Pulumi.yaml": "name: old-sdk\nruntime:\n  name: nodejs\n  options:\n    packagemanager: pnpm\n",
      "package.json": packageJson({
        name: "old-sdk",
        main: "index.js",
        dependencies: { "@pulumi/pulumi": PULUMI.tooOld, "pulumi-voiceagent": `file:${tarball}` },
      }),
      "index.js": program("js"),
    },
  }),
  config: { "old-sdk:number": "+15550010001" },
});

describe(`a program on @pulumi/pulumi ${PULUMI.tooOld}`, () => {
  it("fails with one line naming both versions, before registering anything or calling the service", async () => {
    const up = await ctx.c.pulumi(["up", "--yes", "--skip-preview"], { check: false });
    expect(up.code).not.toBe(0);
    const output = up.stdout + up.stderr;
    // One line names both: the version the program has and the range this package supports.
    const lines = output.split("\n").filter((l) => l.includes(PULUMI.tooOld) && l.includes(`>=${PULUMI.lowest} <4`));
    expect(lines.length).toBeGreaterThan(0);
    expect(output).not.toMatch(/^\s+at .*version-check/m);
    expect(ctx.emu.stats.total).toBe(0);
    const state = JSON.parse((await ctx.c.pulumi(["stack", "export"])).stdout) as {
      deployment: { resources?: { type: string }[] };
    };
    expect((state.deployment.resources ?? []).filter((r) => r.type.includes("voiceagent"))).toEqual([]);
  }, 120_000);
});
