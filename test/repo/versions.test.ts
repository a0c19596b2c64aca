// Each Pulumi version is written once, in versions.json; npm and go read their own files, so each
// copy there must say the same, or the setup builds one version and the tests install another.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PULLED_PULUMI_RANGE } from "../../provider/cli/project-files.js";
import { VERSIONS } from "../helpers/versions.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** The version a go.mod requires of a module (its `require` line), or undefined. */
function required(goMod: string, module: string): string | undefined {
  const escaped = module.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`^\\s*(?:require\\s+)?${escaped} v(\\S+)`, "m").exec(read(goMod))?.[1];
}

describe("versions.json is the one place a Pulumi version is written", () => {
  it("the CLI: tools/pulumi/go.mod builds it from pkg/v3 and sdk/v3 at that version", () => {
    expect(required("tools/pulumi/go.mod", "github.com/pulumi/pulumi/pkg/v3")).toBe(VERSIONS.cli);
    expect(required("tools/pulumi/go.mod", "github.com/pulumi/pulumi/sdk/v3")).toBe(VERSIONS.cli);
  });

  it("@pulumi/pulumi: package.json pins it exactly and the lockfile installs it", () => {
    const manifest = JSON.parse(read("package.json")) as { devDependencies: Record<string, string> };
    expect(manifest.devDependencies["@pulumi/pulumi"]).toBe(VERSIONS.nodejs);
    const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, { version?: string }> };
    const installed = Object.entries(lock.packages).filter(([p]) => p.endsWith("node_modules/@pulumi/pulumi"));
    expect(installed.map(([p, v]) => `${p}@${v.version}`)).toEqual([`node_modules/@pulumi/pulumi@${VERSIONS.nodejs}`]);
    // What `voiceagent pull` writes into a new project: the version tested here, or newer.
    expect(PULLED_PULUMI_RANGE).toBe(`^${VERSIONS.nodejs}`);
  });

  it("the Go SDK, the Go examples and the schema's Go examples require sdk/v3 at that version", () => {
    for (const goMod of ["sdk/go.mod", "examples/go/go.mod", "provider/examples/go.mod"]) {
      expect([goMod, required(goMod, "github.com/pulumi/pulumi/sdk/v3")]).toEqual([goMod, VERSIONS.go]);
    }
  });
});
