import { spawn } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readlinkSync } from "node:fs";
import path from "node:path";

/**
 * Starts `pulumi <args>` in `cwd`, waits until `when()` holds, then kills it with SIGKILL the way a
 * CI runner's timeout or an OOM kill does: the CLI's process group, and every process left working
 * in the project folder (the language host and the dynamic provider run outside that group).
 */
export async function killPulumiWhen(cwd: string, env: NodeJS.ProcessEnv, args: string[], when: () => boolean): Promise<void> {
  const child = spawn("pulumi", args, { cwd, env, detached: true, stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (when()) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`pulumi ${args.join(" ")} ended before the kill point`));
    });
  });
  if (child.pid) process.kill(-child.pid, "SIGKILL");
  killProcessesIn(cwd);
  await exited;
}

/** SIGKILLs every process whose working directory is `dir` (Linux /proc). */
export function killProcessesIn(dir: string): void {
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) === dir) process.kill(Number(pid), "SIGKILL");
    } catch {
      // Gone already, or not ours to read.
    }
  }
}

/**
 * Puts back the previous checkpoint of `stack` (every stack when not given) of a file backend
 * (`<stack>.json.bak`, and its checksum attributes), for a checkpoint a kill left empty. Only the
 * killed stack's: another stack's backup is an older state of a stack nothing interrupted.
 */
export function restoreBackup(stateDir: string, stack?: string): void {
  const stacks = path.join(stateDir, ".pulumi", "stacks");
  for (const project of readdirSync(stacks)) {
    for (const file of readdirSync(path.join(stacks, project))) {
      if (!file.endsWith(".json.bak") || (stack !== undefined && file !== `${stack}.json.bak`)) continue;
      const bak = path.join(stacks, project, file);
      copyFileSync(bak, bak.replace(/\.bak$/, ""));
      if (existsSync(`${bak}.attrs`)) copyFileSync(`${bak}.attrs`, `${bak.replace(/\.bak$/, "")}.attrs`);
    }
  }
}
