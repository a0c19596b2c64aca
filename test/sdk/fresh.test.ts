// The Python and Go SDKs are generated from provider/schema.json (npm run gen:sdks) and committed,
// as Pulumi providers do, so users and reviewers read them without a build. Stale generated code
// would give programs classes, arguments or docs the plugin no longer matches.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, run } from "../helpers/consumer.js";

const out = mkdtempSync(path.join(os.tmpdir(), "va-sdkgen-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** What building or importing the Python package leaves beside it (sdk/python/.gitignore). */
const BUILD_OUTPUT = /(^|\/)(__pycache__|build|dist|\.mypy_cache|[^/]*\.egg-info)(\/|$)|\.pyc$/;

/** Every file under dir, relative to it, with its text, without build outputs. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const name = path.relative(dir, full);
    if (!BUILD_OUTPUT.test(name)) files.set(name, readFileSync(full, "utf8"));
  }
  return files;
}

/** The files that differ between the committed folder and the regenerated one, each with how. */
function differences(committed: string, fresh: string): string[] {
  const a = tree(committed);
  const b = tree(fresh);
  const found: string[] = [];
  for (const [name, text] of b) {
    if (!a.has(name)) found.push(`${name}: missing from the commit`);
    else if (a.get(name) !== text) found.push(`${name}: differs`);
  }
  for (const name of a.keys()) if (!b.has(name)) found.push(`${name}: no longer generated`);
  return found.sort();
}

describe("sdk/ (run `npm run gen:sdks` after changing provider/schema.json)", () => {
  beforeAll(() => {
    execFileSync("bash", [path.join(REPO_ROOT, "scripts/gen-sdks.sh"), out], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  });

  it("sdk/python is what the generator writes from the committed schema", () => {
    expect(differences(path.join(REPO_ROOT, "sdk/python"), path.join(out, "python"))).toEqual([]);
  });

  it("sdk/go/voiceagent is what the generator writes from the committed schema", () => {
    expect(differences(path.join(REPO_ROOT, "sdk/go/voiceagent"), path.join(out, "go/voiceagent"))).toEqual([]);
  });

  it("`pulumi package gen-sdk <schema> --language python|go` writes the same SDKs, through our hosts", async () => {
    const viaCli = path.join(out, "gen-sdk");
    for (const language of ["python", "go"]) {
      const r = await run(
        "pulumi",
        ["package", "gen-sdk", path.join(REPO_ROOT, "provider/schema.json"), "--language", language, "--out", viaCli],
        {
          cwd: out,
        },
      );
      expect(r.code, r.stderr).toBe(0);
    }
    expect(differences(path.join(REPO_ROOT, "sdk/python"), path.join(viaCli, "python"))).toEqual([]);
    expect(differences(path.join(REPO_ROOT, "sdk/go/voiceagent"), path.join(viaCli, "go/voiceagent"))).toEqual([]);
  });
});
