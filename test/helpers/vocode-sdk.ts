import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The service's own published client the emulator is tried with (issue 35). */
export const VOCODE_SDK_VERSION = "0.0.48";

/**
 * A Python venv holding vocode-api at VOCODE_SDK_VERSION from PyPI, made once and kept in the OS
 * temp folder keyed by version (and by the machine's python3, whose version goes into the name),
 * so later runs cost nothing. Made in a scratch folder and renamed into place when complete, so
 * two test processes never see a half-made one. Returns the venv's python.
 */
export async function vocodeSdkPython(): Promise<string> {
  const { stdout } = await run("python3", ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"]);
  const dir = path.join(tmpdir(), `voiceagent-vocode-api-${VOCODE_SDK_VERSION}-py${stdout.trim()}`);
  const python = path.join(dir, "bin", "python");
  const ready = path.join(dir, ".ready");
  if (existsSync(ready)) return python;
  // A venv finds its packages next to its python (pyvenv.cfg), wherever its folder is: it may be
  // made under a scratch name and renamed into place (atomic), as long as pip is run as a module.
  const scratch = await mkdtemp(`${dir}.partial-`);
  try {
    await run("python3", ["-m", "venv", scratch]);
    const pip = ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"];
    await run(path.join(scratch, "bin", "python"), [...pip, `vocode-api==${VOCODE_SDK_VERSION}`]);
    await writeFile(path.join(scratch, ".ready"), `${VOCODE_SDK_VERSION}\n`);
    // Another process may have got there first: its venv is as good as this one.
    await rename(scratch, dir).catch(() => {
      if (!existsSync(ready)) throw new Error(`could not move the vocode-api venv into ${dir}`);
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return python;
}
