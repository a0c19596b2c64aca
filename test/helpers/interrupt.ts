import { spawn } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Starts `pulumi <args>` in `cwd`, waits until `when()` holds, then kills it with SIGKILL the way a
 * CI runner's timeout or an OOM kill does: the CLI and every process it started (the language host
 * and the dynamic provider run in groups of their own, and in the program's folder), and returns
 * once all of them are gone, so none of them can still send a request.
 * `when` is polled: to kill at an exact point it must stay true once it holds (the service holding
 * the next request open, say), or the run may go on past it between two polls.
 */
export async function killPulumiWhen(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  when: () => boolean,
): Promise<void> {
  const child = spawn("pulumi", args, { cwd, env, detached: true, stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (when()) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`pulumi ${args.join(" ")} ended before the kill point`));
    });
  });
  if (!child.pid) throw new Error("pulumi did not start");
  // Freeze the tree first, so none of it can start another process, then read it whole while the
  // CLI lives (once it dies its children are reparented and lost to it), then kill it all.
  const tree = new Set([child.pid]);
  for (
    let pid: number | undefined = child.pid;
    pid !== undefined;
    pid = [...descendantsOf(child.pid)].find((p) => !tree.has(p))
  ) {
    tree.add(pid);
    signal(pid, "SIGSTOP");
  }
  for (const pid of tree) signal(pid, "SIGKILL");
  await exited;
  while ([...tree].some(alive)) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Sends `name` to `pid`, which may be gone already. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

/** The parent of `pid` and its state letter, from /proc/<pid>/stat; undefined once it is gone. */
function statOf(pid: number): { ppid: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
    const [state = "", ppid = ""] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(ppid), state };
  } catch {
    return undefined;
  }
}

/** Whether `pid` still runs (a zombie has stopped running: its sockets are closed). */
function alive(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== "Z" && stat.state !== "X";
}

/** Every process below `root` in the process tree now (Linux /proc). */
function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat) parents.set(Number(entry), stat.ppid);
  }
  const found: number[] = [];
  let level = [root];
  while (level.length > 0) {
    level = [...parents].filter(([, ppid]) => level.includes(ppid)).map(([pid]) => pid);
    found.push(...level);
  }
  return found;
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
