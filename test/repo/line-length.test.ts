// No hand-written line over 150 characters (issue 34 item 8): TypeScript, JavaScript, Python, Go
// and shell, sources, tests and scripts alike. Biome's formatter keeps code within 120 columns;
// what it cannot break (comments, strings, templates, test titles) is wrapped by hand. Generated
// files (`npm run gen`, `npm run gen:sdks`), recorded fixtures and Markdown are left out.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const LIMIT = 150;
const CHECKED = /\.(ts|tsx|mts|cts|js|mjs|cjs|py|go|sh)$/;

/** Written by a generator or recorded from an older release: never edited by hand. */
const NOT_HAND_WRITTEN = ["provider/generated/", "sdk/", "test/upgrade/fixtures/", "test/sdk/fleet-0.4.0/"];

/** Every file git tracks or would track (the .gitignore keeps out builds, installs and venvs). */
function files(): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return out.split("\0").filter((f) => f !== "");
}

describe("line length", () => {
  it(`no hand-written source, test or script has a line over ${LIMIT} characters`, () => {
    const checked = files().filter((f) => CHECKED.test(f) && !NOT_HAND_WRITTEN.some((p) => f.startsWith(p)));
    expect(checked.length).toBeGreaterThan(100);
    const long = checked.flatMap((f) => {
      let text: string;
      try {
        text = readFileSync(path.join(ROOT, f), "utf8");
      } catch {
        return []; // deleted in the work tree, not yet in the index
      }
      return text.split("\n").flatMap((line, i) => (line.length > LIMIT ? [`${f}:${i + 1} (${line.length})`] : []));
    });
    expect(long).toEqual([]);
  });
});
