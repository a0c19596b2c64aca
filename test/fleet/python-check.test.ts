// The Python SDK's Fleet (sdk-overlays/python/fleet.py, shipped in sdk/python) checks a fleet with
// the rules of provider/fleet/schema.ts, through zod's JSON Schema of it: this runs both checks on
// the same fleets and requires the same problems, in the same order, word for word.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkFleet } from "../../provider/dist/fleet/check.js";
import { REPO_ROOT } from "../helpers/consumer.js";
import { CASES } from "./python-cases.js";

const python = process.env.VOICEAGENT_PYTHON ?? "";

/** A folder that tells importlib.metadata the package's version, as an installed wheel would (no build needed). */
function metadataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "va-fleet-py-"));
  const info = path.join(dir, "pulumi_voiceagent-0.0.0.dist-info");
  mkdirSync(info);
  writeFileSync(path.join(info, "METADATA"), "Metadata-Version: 2.1\nName: pulumi_voiceagent\nVersion: 0.0.0\n");
  return dir;
}

/** Runs `script` with the fleets on stdin and sdk/python importable; its stdout is JSON. */
function runPython(script: string, input: unknown): unknown {
  if (!python) throw new Error("VOICEAGENT_PYTHON is not set: run the tests through scripts/run.sh");
  const pythonPath = [path.join(REPO_ROOT, "sdk", "python"), metadataDir()].join(path.delimiter);
  const out = execFileSync(python, ["-c", script], {
    input: JSON.stringify(input),
    env: { ...process.env, PYTHONPATH: pythonPath, PYTHONDONTWRITEBYTECODE: "1" },
    encoding: "utf8",
  });
  return JSON.parse(out);
}

const CHECK = `
import json, sys
from pulumi_voiceagent import check_fleet
print(json.dumps({k: check_fleet(v) for k, v in json.load(sys.stdin).items()}))
`;

describe("the Python SDK's fleet check", () => {
  const fromPython = runPython(CHECK, CASES);

  it.each(Object.keys(CASES))("judges %s as the TypeScript check does", (name) => {
    const r = checkFleet(CASES[name]);
    expect(Reflect.get(Object(fromPython), name)).toEqual(r.ok ? [] : r.problems);
  });

  it("names the path and the choices of the issue's example", () => {
    expect(Reflect.get(Object(fromPython), "issueExample")).toEqual([
      'fleet.agents.support.voice: no voice named "warm2" (voices: calm, warm)',
    ]);
  });
});
