// The pulumi_voiceagent wheel as a Python user installs it: built from sdk/python (or another
// generated SDK) by scripts/build-wheel.sh and installed with pip into a folder of its own.
import path from "node:path";
import { REPO_ROOT, run } from "../helpers/consumer.js";
import type { Runner } from "./sdk-stack.js";

/** The interpreter of the setup's virtualenv (scripts/ensure-python.sh), with the Pulumi SDK. */
export const python = process.env.VOICEAGENT_PYTHON ?? "";

/** Runs a command, returning its stdout; throws with its output on failure. */
export async function must(cmd: string, args: string[], cwd: string): Promise<string> {
  const r = await run(cmd, args, { cwd });
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * Builds the wheel from `src` (sdk/python unless given) and installs it as a user's `pip install`
 * does, into `<tmp>/site`; its dependencies (pulumi, and packaging and semver with it) are already in the venv, so no index
 * is needed. Returns the runner of examples/python on it.
 */
export async function installWheel(tmp: string, src?: string): Promise<Runner & { site: string; wheel: string }> {
  if (!python)
    throw new Error(
      "VOICEAGENT_PYTHON is not set: run the tests through npm test (scripts/ensure-python.sh needs python3)",
    );
  const wheelDir = path.join(tmp, "wheel");
  const wheel = (
    await must("bash", [path.join(REPO_ROOT, "scripts/build-wheel.sh"), wheelDir, ...(src ? [src] : [])], REPO_ROOT)
  ).trim();
  const site = path.join(tmp, "site");
  await must(python, ["-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", site, wheel], tmp);
  // PULUMI_PYTHON_CMD: the interpreter our language host runs `pulumi preview` with (the venv's).
  return {
    cmd: python,
    args: ["__main__.py"],
    env: { PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: "1", PULUMI_PYTHON_CMD: python },
    site,
    wheel,
  };
}
