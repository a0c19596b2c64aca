// A Python program on the native provider: examples/python with pulumi_voiceagent installed from
// the wheel that `npm run pack:python` builds (not from sdk/python), run through its Automation
// API runner (`python __main__.py up`: no Python language host can be built here).
import { statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, run } from "../helpers/consumer.js";
import { sdkScenario } from "./scenario.js";
import { useSdkStack } from "./sdk-stack.js";

const python = process.env.VOICEAGENT_PYTHON ?? "";
let site = "";
let wheel = "";

const ctx = useSdkStack("python", async (tmp) => {
  if (!python) throw new Error("VOICEAGENT_PYTHON is not set: run the tests through npm test (scripts/ensure-python.sh needs python3)");
  const built = await run("bash", [path.join(REPO_ROOT, "scripts/build-wheel.sh"), path.join(tmp, "wheel")], { cwd: REPO_ROOT });
  if (built.code !== 0) throw new Error(`building the wheel failed:\n${built.stderr}`);
  wheel = built.stdout.trim();
  console.log(`pulumi_voiceagent wheel: ${path.basename(wheel)}, ${statSync(wheel).size} bytes`);
  site = path.join(tmp, "site");
  // As a user's `pip install <wheel>`, into a folder of its own; its dependencies (pulumi, parver)
  // are already in the venv, so no index is needed.
  const installed = await run(python, ["-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", site, wheel], { cwd: tmp });
  if (installed.code !== 0) throw new Error(`installing the wheel failed:\n${installed.stderr}`);
  return { cmd: python, args: ["__main__.py"], env: { PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: "1" } };
});

describe("Python SDK (examples/python)", () => {
  it("the program imports pulumi_voiceagent from the installed wheel, which requires pulumi 3", async () => {
    const probe = await run(
      python,
      ["-c", "import importlib.metadata as m, pulumi_voiceagent as v; print(v.__file__); print(m.requires('pulumi_voiceagent'))"],
      { cwd: ctx.dir, env: { ...process.env, PYTHONPATH: site } },
    );
    const [file, requires] = probe.stdout.trim().split("\n");
    expect(file?.startsWith(site + path.sep)).toBe(true);
    expect(requires).toMatch(/'pulumi<4\.0\.0,>=3\.0\.0'|'pulumi>=3\.0\.0,<4\.0\.0'/);
  });

  sdkScenario(ctx);
});
