// The order test files start in. Vitest starts the files that took longest in its last run first,
// but a fresh clone (CI) has no last run, and then it starts the LARGEST files first: the slow
// end-to-end files with few lines (the Go SDK's, the kill points', an example's) started last and
// ran alone on one worker at the end while the other waited. These files, each a minute or more of
// the real CLI, start first on a fresh clone, the slowest first; every other file keeps vitest's
// order. A file missing from the list only starts later; a name here that no longer exists is
// ignored (test/repo/slowest-first.test.ts checks that each one exists).
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The slowest files of a full run on 2 cores, slowest first (per-file durations, vitest's reporter). */
export const SLOWEST_FIRST = [
  "test/native/native.test.ts",
  "test/yaml/yaml.test.ts",
  "test/e2e/current-api.test.ts",
  "test/sdk/go.test.ts",
  "test/e2e/current-kinds.test.ts",
  "test/e2e/lines-purchases.test.ts",
  "test/e2e/flaky-fleet.test.ts",
  "test/e2e/interrupted.test.ts",
  "test/e2e/lines.test.ts",
  "test/cli/pipelines.test.ts",
  "test/e2e/environments.test.ts",
  "test/policy/policy-pack.test.ts",
  "test/sdk/python.test.ts",
  "test/consumer/fleet.test.ts",
  "test/e2e/current-pull.test.ts",
  "test/e2e/basic-example.test.ts",
  "test/consumer/template.test.ts",
  "test/e2e/root-stack.test.ts",
  "test/consumer/javascript.test.ts",
  "test/e2e/flaky-call.test.ts",
];

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // A file that ran before keeps vitest's order (its own durations, when it has them).
    if (files.every((f) => this.ctx.cache.getTestSpecificationResult(f))) return sorted;
    const rank = (f: TestSpecification) => {
      const i = SLOWEST_FIRST.findIndex((rel) => f.moduleId.endsWith(`/${rel}`));
      return i < 0 ? SLOWEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: files off the list keep vitest's order among themselves.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
