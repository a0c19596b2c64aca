import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { basename } from "node:path";

/**
 * Whether this deployment operates on part of the stack only (`--target`, `--exclude`,
 * `--target-replace`).
 *
 * Why: the engine never calls Check for a resource left out of such a run (pulumi v3.274.1,
 * pkg/resource/deploy/step_generator.go: "If not targeted, stub out the provider check and use the
 * old inputs directly"), so the numbers those resources hold are never declared, and a delete cannot
 * tell whether another resource still owns its number. The engine passes no word of targets to a
 * provider (neither Configure nor the plugin's environment), so the provider reads them where they
 * are: the command line of the `pulumi` process that started it, found among its ancestors.
 */
export interface Invocation {
  /** The flag that limits the run (e.g. "--target"), or undefined for a run over the whole stack. */
  limitedBy: string | undefined;
  /** The `pulumi` process found (the engine, which serves every provider process of the deployment). */
  pid?: number | undefined;
}

// `destroy --exclude-protected` is left out on purpose: it is the usual teardown that keeps
// protected numbers, and it leaves a number's holder behind only if a protected resource shares
// that number with an unprotected one of the same kind.
const LIMITING = ["--target", "--exclude", "--target-replace"];

/**
 * The flag among `args` (a pulumi command line, without the program name) that limits the run to
 * part of the stack, if any. Short `-t` counts, alone or with its value attached (`-tURN`).
 */
export function limitingFlag(args: readonly string[]): string | undefined {
  for (const arg of args) {
    if (arg === "--") return undefined;
    const long = LIMITING.find((f) => arg === f || arg.startsWith(`${f}=`));
    if (long) return long;
    if (/^-t/.test(arg)) return "--target";
  }
  return undefined;
}

/** One process as the walk sees it: its parent and its command line. */
export interface ProcessInfo {
  ppid: number;
  argv: string[];
}

/** Reads a process from /proc (Linux), or from `ps` elsewhere; undefined when neither can tell. */
function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces: the fields after it are plain.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    return Number.isInteger(ppid) ? { ppid, argv } : undefined;
  } catch {
    // No /proc (macOS, BSD): ask ps, which splits arguments on spaces; flags survive that.
  }
  try {
    const line = execFileSync("ps", ["-o", "ppid=", "-o", "args=", "-p", String(pid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    const m = /^(\d+)\s+(.*)$/.exec(line);
    return m ? { ppid: Number(m[1]), argv: (m[2] ?? "").split(/\s+/) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Walks up from `pid` to the nearest `pulumi` process and reads its flags. Undefined when no such
 * ancestor is found (a test runner, an unsupported platform): the caller then cannot tell.
 */
export function findInvocation(
  pid: number,
  read: (pid: number) => ProcessInfo | undefined = processInfo,
): Invocation | undefined {
  let at = pid;
  let current = read(at);
  for (let depth = 0; current && depth < 12; depth++) {
    const [program, ...args] = current.argv;
    if (program && /^pulumi(\.exe)?$/.test(basename(program))) return { limitedBy: limitingFlag(args), pid: at };
    if (current.ppid <= 1) return undefined;
    at = current.ppid;
    current = read(at);
  }
  return undefined;
}
