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
    expect(() => parseRange("^3.139.0")).toThrow(/must look like ">=3.139.0 <4", not "\^3.139.0"/);
  });

  it("says, in one line, both versions, that nothing happened, and what to run", () => {
    const old = unsupportedMessage("0.2.0", range, "3.100.0", "/p/node_modules/@pulumi/pulumi");
    expect(old).toBe(
      "pulumi-voiceagent 0.2.0 supports @pulumi/pulumi >=3.139.0 <4, but this program uses @pulumi/pulumi 3.100.0 " +
        "(/p/node_modules/@pulumi/pulumi); nothing was registered and no request was sent to the service: " +
        "run `npm install @pulumi/pulumi@^3.139.0` (or pnpm add, yarn add) in the project",
    );
    expect(unsupportedMessage("0.2.0", range, "4.1.0", "/p")).toMatch(/uses @pulumi\/pulumi 4\.1\.0 .*release that supports @pulumi\/pulumi 4$/);
    expect(unsupportedMessage("0.2.0", range, undefined, "/p")).toMatch(/no @pulumi\/pulumi resolves from \/p.*npm install @pulumi\/pulumi`/);
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
    const lines = output.split("\n").filter((l) => l.includes("pulumi-voiceagent 0.2.0 supports"));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/supports @pulumi\/pulumi >=3\.139\.0 <4, but this program uses @pulumi\/pulumi 3\.138\.0 \(/);
    expect(output).not.toMatch(/^\s+at .*version-check/m);
    expect(ctx.emu.stats.total).toBe(0);
    const state = JSON.parse((await ctx.c.pulumi(["stack", "export"])).stdout) as { deployment: { resources?: { type: string }[] } };
    expect((state.deployment.resources ?? []).filter((r) => r.type.includes("voiceagent"))).toEqual([]);
  }, 120_000);
});
