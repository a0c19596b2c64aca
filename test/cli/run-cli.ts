// Running the `voiceagent` command: in-process through runCli (fast), or as the built bin (real exit codes).
import { spawn } from "node:child_process";
import path from "node:path";
import { runCli } from "../../provider/cli/program.js";
import { ROOT } from "../helpers/pulumi-stack.js";

/** What one run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command in this process with the given environment (nothing inherited but PATH and HOME). */
export async function cliInProcess(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    cwd,
  });
  return { code, stdout, stderr };
}

/** The built bin, `provider/dist/cli/main.js`, as users run it. */
export const CLI_BIN = path.join(ROOT, "provider/dist/cli/main.js");

/** Runs the built bin as its own process; the environment is this process's plus `env`. */
export function cliProcess(args: string[], env: NodeJS.ProcessEnv = {}, cwd = ROOT): Promise<CliRun> {
  return run(process.execPath, [CLI_BIN, ...args], env, cwd);
}

/** Runs any command (e.g. the drift-check script), collecting its output and exit code. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
