import { createHash, randomUUID } from "node:crypto";
import { CoordinationError } from "./coordination-error.js";
import {
  closeSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { homedir, hostname, tmpdir, userInfo } from "node:os";
import path from "node:path";
import { findInvocation, type Invocation } from "./invocation.js";
import { openMachine, type ProcessId, type Room, type SharedMachine } from "./machine.js";

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
 * get the same port never reads an old folder), and where those pids mean anything: the machine's
 * boot and the PID namespace (`scopeOf`). Two containers that share one temp folder (and, as root
 * in both, one uid) see different processes under the same pids and may both use port 8080 for an
 * engine: with the namespace in the key they never share a folder. The engine is the nearest
 * `pulumi` ancestor: the plugin's parent itself, unless the plugin was started through a wrapper
 * script.
 *
 * Where: a folder per user closed to others (mode 0700), one subfolder per deployment: the OS
 * temp folder's `pulumi-voiceagent-shared-<uid>`, unless someone else made that name first (the
 * temp folder is everyone's), then one nobody else can make (see `sharedRoots`). Nothing secret
 * is written: numbers and tokens appear only as hashes (salted with the deployment's key), ids are
 * the service's.
 *
 * Cleanup: the engine stops its plugins without a word at the end, and no process can tell it is
 * the deployment's last, so a folder is removed by the first plugin of any later deployment that
 * proves it dead: its engine gone (or its pid now another process's) in the same PID namespace of
 * the same boot; a folder of another namespace only once no process of its deployment has shown a
 * sign of life for `ABANDONED_AFTER_MS` (each refreshes it every `HEARTBEAT_MS`). An engine that
 * this process cannot see is not a dead one. A folder holds a few small files.
 */
export class SharedDeployment implements Room {
  /** The timer that marks the folder as in use while this process is in the deployment. */
  private beating: NodeJS.Timeout | undefined;
  /**
   * What every deployment of this machine shares (coordination/machine.ts): the create ledgers and
   * the pacing. A deployment made without one (tests) keeps them in its own folder.
   */
  readonly machine: Room;
  /** The deployment's engine: what its claims in the machine's ledgers live as long as. */
  readonly engine: ProcessId;

  constructor(
    /** The deployment's folder. */
    readonly dir: string,
    /** The deployment's key: salts every hash written under it. */
    readonly key: string,
    shared: { machine?: Room; engine?: ProcessId } = {},
  ) {
    this.machine = shared.machine ?? this;
    this.engine = shared.engine ?? { pid: process.pid, started: startedAt(process.pid) };
  }

  /** What this process did once for the folder (coordination/machine.ts `Room`). */
  private readonly done = new Set<string>();

  firstTime(what: string): boolean {
    if (this.done.has(what)) return false;
    this.done.add(what);
    return true;
  }

  /** In its own folder, only its own engine may use what it holds. */
  liveEngines(): ProcessId[] {
    return alive(this.engine) ? [this.engine] : [];
  }

  /** Marks the deployment's folder as in use every `HEARTBEAT_MS`, until `leave`. */
  beat(): void {
    const file = path.join(this.dir, "engine.json");
    if (this.beating) clearInterval(this.beating);
    this.beating = setInterval(() => {
      try {
        const now = new Date();
        utimesSync(file, now, now);
      } catch {
        // Removed (its deployment ended, or a sweep by a release without scopes): nothing to keep.
      }
    }, HEARTBEAT_MS);
    // Never what keeps the process alive.
    this.beating.unref();
  }

  /** Leaves the deployment (tests run several in one process): stops the heartbeat. */
  leave(): void {
    if (this.beating) clearInterval(this.beating);
    this.beating = undefined;
  }

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

/**
 * What identifies the engine process over time: its pid, its start time where the OS tells it, and
 * the scope in which that pid names it (`scopeOf`; absent in folders of releases before 0.5.0).
 */
interface Engine {
  pid: number;
  started: string;
  scope?: string;
}

/**
 * Where pids mean the same processes: on Linux the boot (`boot_id`: one machine, one boot; a home
 * folder shared by several machines is then no risk) and the PID namespace (the inode of
 * /proc/self/ns/pid: each container has its own); elsewhere (macOS, Windows: no PID namespaces)
 * the machine's name. Two processes of one scope see each other's pids; of two scopes, never
 * reliably.
 */
export function scopeOf(read: { ns: () => string; boot: () => string } = linuxScope): string {
  try {
    return `${read.boot()}/${read.ns()}`;
  } catch {
    return `host:${hostname()}`;
  }
}

const linuxScope = {
  ns: () => readlinkSync("/proc/self/ns/pid"),
  boot: () => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim(),
};

/**
 * How often each process of a deployment marks its folder as in use (the mtime of engine.json): a
 * folder of another PID namespace cannot be proved dead by its engine's pid, only by its silence.
 */
const HEARTBEAT_MS = 60_000;

/**
 * How long a folder of another PID namespace (or of a release that recorded none) must have been
 * silent before it is removed: far longer than any operation runs (the client's default budget is
 * 2 minutes; a resource's customTimeouts or voiceagent:operationTimeout in practice some hours),
 * plus a margin. A deployment whose processes live refresh it every minute, whatever they wait for,
 * so only a deployment whose processes are all gone (or stopped for a day) loses its folder.
 */
const ABANDONED_AFTER_MS = 24 * 3_600_000;

/**
 * The engine an `engine.json` names, or undefined when the text is not one. Checked by hand, not by
 * zod: the program's own process loads this module (coordination/bound-once.ts), and a program that declares
 * no fleet loads no zod. The file is this module's own, written by `joinDeployment`.
 */
function engineOf(text: string): Engine | undefined {
  const v: unknown = JSON.parse(text);
  if (typeof v !== "object" || v === null || !("pid" in v) || !("started" in v)) return undefined;
  const { pid, started } = v;
  const scope = "scope" in v && typeof v.scope === "string" ? v.scope : undefined;
  if (typeof pid !== "number" || !Number.isInteger(pid) || typeof started !== "string") return undefined;
  return scope === undefined ? { pid, started } : { pid, started, scope };
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

/**
 * Whether the process that wrote an entry (a ledger's, a pace's) is still running: its pid answers
 * (another user's process under that pid is not ours) and, where the OS tells start times, it
 * started when the entry says (a pid reused by a later process would otherwise hold what it held).
 */
export function running(entry: ProcessId): boolean {
  if (entry.pid === process.pid) return true;
  try {
    process.kill(entry.pid, 0);
  } catch {
    return false;
  }
  return entry.started === "" || startedAt(entry.pid) === entry.started;
}

/** Whether the engine that made a folder still runs (the same process, not a later one with its pid). */
export function alive(engine: ProcessId): boolean {
  try {
    process.kill(engine.pid, 0);
  } catch {
    // ESRCH: gone. EPERM: another user's process holds the pid now, so not our engine either.
    return false;
  }
  return startedAt(engine.pid) === engine.started;
}

/**
 * The folders that may hold every deployment of this user, first choice first: the OS temp
 * folder's `pulumi-voiceagent-shared-<uid>`; if someone else made that name first (any local user
 * can make any name in /tmp, so refusing to start there would let them stop this user's plugin),
 * the user's runtime folder ($XDG_RUNTIME_DIR, the user's own, 0700), then a folder in the user's
 * home. Other users can make neither. Every process of a deployment has the same environment from
 * the engine and so reaches the same choice: the first one of these that is this user's, closed to
 * others (`joinDeployment`); once made, the temp folder's name stays this user's.
 */
export function sharedRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  // A folder given (tests: each its own, so that deployments of different tests share no machine
  // folder; a user whose temp folder is not where their deployments should meet): only that one.
  const given = env.VOICEAGENT_SHARED_DIR;
  if (given && path.isAbsolute(given)) return [given];
  const name = `pulumi-voiceagent-shared-${whoAmI()}`;
  const runtime =
    env.XDG_RUNTIME_DIR && path.isAbsolute(env.XDG_RUNTIME_DIR) ? [path.join(env.XDG_RUNTIME_DIR, name)] : [];
  let home: string[] = [];
  try {
    home = [path.join(homedir(), ".pulumi-voiceagent", "shared")];
  } catch {
    // No home folder (some CI users): the other places only.
  }
  return [path.join(tmpdir(), name), ...runtime, ...home];
}

/** The first of `roots` that is, or could be made, a folder of this user closed to others. */
function usableRoot(roots: readonly string[]): string {
  const refused: string[] = [];
  for (const root of roots) {
    try {
      // Made by this process closed to others, or found: then it must be this user's and closed.
      mkdirSync(path.dirname(root), { recursive: true, mode: 0o700 });
      try {
        mkdirSync(root, { mode: 0o700 });
      } catch (err) {
        if (!(err instanceof Error && "code" in err && err.code === "EEXIST")) throw err;
      }
      if (closedToOthers(lstatSync(root))) return root;
      refused.push(`${root} is not a folder of this user closed to others`);
    } catch (err) {
      refused.push(`${root}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new Error(refused.join("; "));
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

/**
 * The engines of the deployments of `scope` under `root` that still run: each deployment's folder
 * names its engine (engine.json), made when its first process joined, before any of its creates.
 */
export function liveEngines(root: string, scope: string): ProcessId[] {
  const live: ProcessId[] = [];
  for (const name of readdirSync(root)) {
    try {
      const engine = engineOf(readFileSync(path.join(root, name, "engine.json"), "utf8"));
      if (engine?.scope === scope && alive(engine)) live.push({ pid: engine.pid, started: engine.started });
    } catch {
      // Not a deployment's folder (the machine's), or one being made or removed this instant.
    }
  }
  return live;
}

/**
 * Removes the folders of deployments that are provably over: their engine is gone, seen from the
 * same PID namespace of the same boot (`scope`); or, whatever their scope, no process of theirs
 * has shown a sign of life for `ABANDONED_AFTER_MS`. An engine this process cannot see (another
 * container's) is not a dead one.
 */
function sweep(root: string, keep: string, scope: string, now = Date.now()): void {
  for (const name of readdirSync(root)) {
    const dir = path.join(root, name);
    if (dir === keep) continue;
    try {
      const file = path.join(dir, "engine.json");
      const engine = engineOf(readFileSync(file, "utf8"));
      const provablyGone = engine?.scope === scope && !alive(engine);
      if (!provablyGone && now - statSync(file).mtimeMs <= ABANDONED_AFTER_MS) continue;
    } catch {
      // No readable engine.json: a folder being made this instant, or debris; debris is harmless.
      continue;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Joins the deployment of the engine at `address` (the plugin's last argument): from now on the
 * declared numbers and create ledgers of the host that holds the answer (provider/host.ts) are the
 * deployment's. Called once at start; `at` is for tests (other root folders, another engine, another scope).
 */
export function joinDeployment(
  address: string,
  at: { root?: string; roots?: readonly string[]; enginePid?: number; scope?: string } = {},
): SharedDeployment {
  const pid = at.enginePid ?? findInvocation(process.ppid)?.pid ?? process.ppid;
  const scope = at.scope ?? scopeOf();
  const engine: Engine = { pid, started: startedAt(pid), scope };
  const key = createHash("sha256")
    .update(`${address}\0${engine.pid}\0${engine.started}\0${scope}`)
    .digest("hex")
    .slice(0, 24);
  const roots = at.roots ?? (at.root === undefined ? sharedRoots() : [at.root]);
  let root: string;
  let dir: string;
  let machine: SharedMachine;
  try {
    // The temp folder is everyone's: a folder someone else made (or a link) could feed this
    // process false declarations, so only our own, closed to others, is used, checked before
    // anything is made in it.
    root = usableRoot(roots);
    dir = path.join(root, key);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Written by every process of the deployment, always the same text.
    writeFileSync(path.join(dir, "engine.json"), JSON.stringify(engine), { mode: 0o600 });
    // Beside the deployments, in the folder just checked to be this user's alone.
    const under = root;
    machine = openMachine(under, scope, () => liveEngines(under, scope));
  } catch (err) {
    // Going on without it would let one provider instance undo what another declares: refuse to start.
    const why = err instanceof Error ? err.message : String(err);
    throw new CoordinationError(
      "E_SHARED_FOLDER",
      `cannot make the folder the provider processes of one deployment share (${why}); nothing was sent to the ` +
        "service: point TMPDIR (or VOICEAGENT_SHARED_DIR) at a folder of your own (e.g. TMPDIR=$HOME/tmp) and run again",
    );
  }
  try {
    sweep(root, dir, scope);
  } catch {
    // Another process swept the same folder at the same time: nothing is lost.
  }
  const joined = new SharedDeployment(dir, key, { machine, engine: { pid: engine.pid, started: engine.started } });
  joined.beat();
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
  const last = argv.at(-1);
  if (!last || !ENGINE_ADDRESS.test(last)) return undefined;
  // The engine is the nearest `pulumi` ancestor (through the wrapper's shell), as for the plugins;
  // where it cannot be found (Windows: no /proc, no ps) the host keeps to itself, as before.
  const enginePid = (at.found ?? (() => findInvocation(process.ppid)))()?.pid;
  if (enginePid === undefined) return undefined;
  return joinDeployment(last, { ...(at.root === undefined ? {} : { root: at.root }), enginePid });
}
