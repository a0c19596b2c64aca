import { createHash, randomUUID } from "node:crypto";
import {
  closeSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { type Invocation, invocation } from "./invocation.js";

/**
 * What one deployment's provider processes know together, on disk.
 *
 * Why: the engine starts one plugin process per provider instance (each explicit Provider, each
 * version of the default provider), all children of one engine and all handed the same engine
 * address. A number declared through one instance must hold back a delete run by another, and
 * creates of one account sent by several must never take one object; memory of one process sees
 * neither.
 *
 * The key: the engine's address (a port the engine holds while the deployment runs, so no two live
 * deployments share it) with the engine's pid and start time (so a later deployment that happens to
 * get the same port never reads an old folder). The engine is the nearest `pulumi` ancestor: the
 * plugin's parent itself, unless the plugin was started through a wrapper script.
 *
 * Where: a folder per user in the OS temp folder (mode 0700), one subfolder per deployment. Nothing
 * secret is written: numbers and tokens appear only as hashes (salted with the deployment's key),
 * ids are the service's.
 *
 * Cleanup: the engine stops its plugins without a word at the end, and no process can tell it is
 * the deployment's last, so a folder is removed by the first plugin of any later deployment that
 * finds its engine gone (or its pid now another process's). A folder holds a few small files.
 */
export class SharedDeployment {
  constructor(
    /** The deployment's folder. */
    readonly dir: string,
    /** The deployment's key: salts every hash written under it. */
    readonly key: string,
  ) {}

  /** A file name for `parts` that shows none of them (a token, a number given as a secret). */
  hashed(...parts: string[]): string {
    return createHash("sha256").update(this.key).update("\0").update(parts.join("\0")).digest("hex").slice(0, 32);
  }

  /** Records a mark that any process of the deployment can see at once (creating an empty file is atomic). */
  mark(group: string, ...parts: string[]): void {
    const dir = path.join(this.dir, group);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    closeSync(openSync(path.join(dir, this.hashed(...parts)), "a", 0o600));
  }

  /** Whether any process of the deployment recorded this mark. */
  marked(group: string, ...parts: string[]): boolean {
    return existsSync(path.join(this.dir, group, this.hashed(...parts)));
  }

  /**
   * Records `holder` as the first to hold `parts`, unless a process of the deployment did first:
   * returns who holds it now. The holder is written under a name of its own, then linked to the
   * mark's name: a link is made whole or not at all (EEXIST), so a reader never sees a half-written
   * holder and two processes never both win.
   */
  holdFirst(group: string, holder: string, ...parts: string[]): string {
    const dir = path.join(this.dir, group);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const mark = path.join(dir, this.hashed(...parts));
    const mine = `${mark}.${process.pid}.${randomUUID()}`;
    writeFileSync(mine, holder, { mode: 0o600 });
    try {
      linkSync(mine, mark);
      return holder;
    } catch (err) {
      if (!(err instanceof Error && "code" in err && err.code === "EEXIST")) throw err;
      return readFileSync(mark, "utf8");
    } finally {
      rmSync(mine, { force: true });
    }
  }
}

/** What identifies the engine process over time: its pid, and its start time where the OS tells it. */
interface Engine {
  pid: number;
  started: string;
}

/**
 * The engine an `engine.json` names, or undefined when the text is not one. Checked by hand, not by
 * zod: the program's own process loads this module (kit/bound-once.ts), and a program that declares
 * no fleet loads no zod. The file is this module's own, written by `joinDeployment`.
 */
function engineOf(text: string): Engine | undefined {
  const v: unknown = JSON.parse(text);
  if (typeof v !== "object" || v === null || !("pid" in v) || !("started" in v)) return undefined;
  const { pid, started } = v;
  return typeof pid === "number" && Number.isInteger(pid) && typeof started === "string" ? { pid, started } : undefined;
}

/** The start time of a process (clock ticks since boot, from /proc), or "" where it cannot be read. */
export function startedAt(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
  } catch {
    return "";
  }
}

/** Whether the engine that made a folder still runs (the same process, not a later one with its pid). */
function alive(engine: Engine): boolean {
  try {
    process.kill(engine.pid, 0);
  } catch {
    // ESRCH: gone. EPERM: another user's process holds the pid now, so not our engine either.
    return false;
  }
  return startedAt(engine.pid) === engine.started;
}

/** The folder of every deployment of this user. */
export function sharedRoot(): string {
  return path.join(tmpdir(), `pulumi-voiceagent-shared-${whoAmI()}`);
}

/** This user, for the shared folder's name: the uid, or on Windows (no uid) the user name. */
function whoAmI(): string {
  if (typeof process.getuid === "function") return String(process.getuid());
  try {
    return userInfo().username.replace(/[^\w.-]/g, "_");
  } catch {
    return "user";
  }
}

/** What `closedToOthers` reads of a folder (a `fs.Stats`). */
export interface FolderStat {
  uid: number;
  mode: number;
  isDirectory(): boolean;
}

/**
 * Whether `st` is a folder (not a link) of this user that no one else may enter. On Windows the
 * modes say nothing (Node reports every folder as 0o666, and mkdir's mode is ignored) and the temp
 * folder is the user's own profile's, closed to others by its ACL: there a folder is enough.
 */
export function closedToOthers(
  st: FolderStat,
  platform: NodeJS.Platform = process.platform,
  uid: number | undefined = process.getuid?.(),
): boolean {
  if (!st.isDirectory()) return false;
  if (platform === "win32") return true;
  return (uid === undefined || st.uid === uid) && (st.mode & 0o077) === 0;
}

/** Removes the folders of deployments whose engine is gone; a folder in use by another user is left. */
function sweep(root: string, keep: string): void {
  for (const name of readdirSync(root)) {
    const dir = path.join(root, name);
    if (dir === keep) continue;
    try {
      const engine = engineOf(readFileSync(path.join(dir, "engine.json"), "utf8"));
      if (!engine || alive(engine)) continue;
    } catch {
      // No readable engine.json: a folder being made this instant, or debris; debris is harmless.
      continue;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

let joined: SharedDeployment | undefined;

/**
 * Joins the deployment of the engine at `address` (the plugin's last argument): from now on this
 * process's declared numbers and create ledgers are the deployment's. Called once at start; `at`
 * is for tests (another root folder, another engine).
 */
export function joinDeployment(address: string, at: { root?: string; enginePid?: number } = {}): SharedDeployment {
  const root = at.root ?? sharedRoot();
  const pid = at.enginePid ?? invocation()?.pid ?? process.ppid;
  const engine: Engine = { pid, started: startedAt(pid) };
  const key = createHash("sha256").update(`${address}\0${engine.pid}\0${engine.started}`).digest("hex").slice(0, 24);
  const dir = path.join(root, key);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // The temp folder is everyone's: a folder someone else made (or a link) could feed this
    // process false declarations, so only our own, closed to others, is used.
    if (!closedToOthers(lstatSync(root))) throw new Error(`${root} is not a folder of this user closed to others`);
    // Written by every process of the deployment, always the same text.
    writeFileSync(path.join(dir, "engine.json"), JSON.stringify(engine), { mode: 0o600 });
  } catch (err) {
    // Going on without it would let one provider instance undo what another declares: refuse to start.
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(
      `cannot write ${dir}, the folder the provider processes of one deployment share (${why}): point TMPDIR at a writable folder`,
    );
  }
  try {
    sweep(root, dir);
  } catch {
    // Another process swept the same folder at the same time: nothing is lost.
  }
  joined = new SharedDeployment(dir, key);
  return joined;
}

/** An engine's address as the engine hands it to a provider process, last on its command line: `host:port`. */
export const ENGINE_ADDRESS = /^(\[[0-9A-Fa-f:.]+\]|[^\s:/]+):\d{1,5}$/;

/**
 * Joins the deployment from the dynamic-provider host (`pulumi-resource-pulumi-nodejs`), once, when
 * this process is one: the engine started it with its address last (`node <dynamic-provider> [flags]
 * <address>`) and a `pulumi` process is among its ancestors. The dynamic host serves every dynamic
 * resource of a deployment from one process, but a resource moved between the entries (dynamic ↔
 * native) and renamed on the way is checked in one process and deleted in the other, and both
 * entries may create for one account: so it shares what it knows with the plugin processes too.
 * Anywhere else (the program's own process, a test runner) nothing is joined.
 */
export function joinFromDynamicHost(
  argv: readonly string[] = process.argv,
  at: { root?: string; found?: () => Invocation | undefined } = {},
): SharedDeployment | undefined {
  if (joined) return joined;
  const last = argv.at(-1);
  if (!last || !ENGINE_ADDRESS.test(last)) return undefined;
  // The engine is the nearest `pulumi` ancestor (through the wrapper's shell), as for the plugins;
  // where it cannot be found (Windows: no /proc, no ps) the host keeps to itself, as before.
  const enginePid = (at.found ?? invocation)()?.pid;
  if (enginePid === undefined) return undefined;
  return joinDeployment(last, { ...(at.root === undefined ? {} : { root: at.root }), enginePid });
}

/** The deployment this process shares with its siblings, if it joined one (a plugin, a dynamic host). */
export function sharedDeployment(): SharedDeployment | undefined {
  return joined;
}

/** Leaves the deployment (tests run several in one process). */
export function leaveDeployment(): void {
  joined = undefined;
}
