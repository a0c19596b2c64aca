// What a test process starts dies with it. A killed or interrupted vitest left processes behind:
// the Pulumi CLI, its language hosts and the programs they run, dynamic provider hosts and plugins
// (the engine starts each plugin in a process group of its own, so killing the CLI's group misses
// them, and once the CLI is gone they belong to init, so no tree walk finds them either), and
// emulators. Each test process therefore marks its environment with an owner token: everything it
// starts, and everything those start, inherits the mark (the CLI hands its environment to every
// plugin and program). When the test process exits, or is stopped by SIGINT, SIGTERM or SIGHUP,
// every process still carrying its mark is killed. Linux only (it reads /proc); elsewhere nothing
// is done. Only node builtins and erasable TypeScript: test/helpers/orphans.test.ts loads this file
// in a plain `node` process.
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";

/** The environment variable carrying the owner token (not VOICEAGENT_*: the consumer projects' environment drops those). */
export const OWNER_ENV = "VA_TEST_OWNER";

/** The processes other than this one whose environment carries `owner`'s mark. */
export function ownedProcesses(owner: string): number[] {
  if (!existsSync("/proc")) return [];
  const mark = `${OWNER_ENV}=${owner}`;
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${name}/environ`, "latin1");
    } catch {
      continue; // gone meanwhile, or another user's
    }
    if (environ.split("\0").includes(mark)) pids.push(Number(name));
  }
  return pids;
}

/** Kills (SIGKILL) every process carrying `owner`'s mark; returns their ids. */
export function killOwned(owner: string): number[] {
  const pids = ownedProcesses(owner);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  return pids;
}

/**
 * Marks this process's environment (once per process) and kills what carries the mark when it
 * exits or is stopped by a signal; the signal then takes its usual course. Returns the token.
 */
export function reapOnExit(): string {
  const existing = process.env[OWNER_ENV];
  if (existing?.startsWith(`${process.pid}-`)) return existing;
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  process.env[OWNER_ENV] = owner;
  process.on("exit", () => killOwned(owner));
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = () => {
      killOwned(owner);
      // Without this listener the signal does what it would have done: ends the process (or runs
      // whatever other listener the test runner has).
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
  return owner;
}
