import { createHash, randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A process as the coordination identifies it over time: its pid and start time ("" where the OS does not tell it). */
export interface ProcessId {
  pid: number;
  started: string;
}

/**
 * A folder that several processes share and the hashes they name things by: a deployment's folder
 * (coordination/deployment.ts) or the machine's (`SharedMachine`).
 */
export interface Room {
  readonly dir: string;
  /** A file name for `parts` that shows none of them (a token, a body), salted with the room's key. */
  hashed(...parts: string[]): string;
  /**
   * The engines of the deployments that may still use the room: an object one of them saw appear
   * may be taken by it unless a claim says otherwise, so a dead deployment's claims are kept until
   * they are all gone (coordination/shared-ledger.ts).
   */
  liveEngines(): ProcessId[];
  /** True the first time only, per `what`, in this process: old files are tidied once. */
  firstTime(what: string): boolean;
}

/**
 * What every deployment of this user on this machine shares: the accounts' create ledgers
 * (coordination/shared-ledger.ts) and each token's pacing state (coordination/shared-pace.ts).
 *
 * Why: two stacks of one account deploying at once (staging and production of one program, two
 * pipelines on one CI runner) each run their own engine and so their own deployment folder. An
 * object one stack's create made, and has not heard back about or has just claimed, would look
 * to the other stack's lost create like its own, and each would pace to the token's limit alone.
 *
 * Where: beside the deployments' folders (`sharedRoots`: the user's own folder, closed to others),
 * one folder per scope (`scopeOf`: the boot and PID namespace), because liveness is told by pids
 * and pids mean one thing only within one scope. A container with its own PID namespace on a
 * shared temp folder is another machine here. `VOICEAGENT_SHARED_DIR` moves the whole root (tests
 * point it at a folder of their own).
 *
 * Nothing secret is written: tokens and bodies appear as hashes salted with a random key made
 * once per folder (`salt`, readable by this user alone); ids are the service's.
 *
 * Cleanup: entries name their process (pid and start time) and claims their deployment's engine,
 * so what a dead process left is dropped by the next step that reads it; a file whose last entry
 * went is removed (shared-ledger.ts, shared-pace.ts). No clock is read to decide any of it.
 */
export class SharedMachine implements Room {
  /** What this process did once for the folder (tidied old files): one join, one tidy. */
  private readonly done = new Set<string>();

  constructor(
    readonly dir: string,
    private readonly salt: string,
    /** The live engines of the deployments that share the folder's root (deployment.ts `liveEngines`). */
    private readonly engines: () => ProcessId[],
  ) {}

  hashed(...parts: string[]): string {
    return createHash("sha256").update(this.salt).update("\0").update(parts.join("\0")).digest("hex").slice(0, 32);
  }

  liveEngines(): ProcessId[] {
    return this.engines();
  }

  firstTime(what: string): boolean {
    if (this.done.has(what)) return false;
    this.done.add(what);
    return true;
  }
}

/**
 * Opens the machine's folder under `root` (a folder of this user closed to others, checked by the
 * caller) for the processes of `scope`, making it and its salt on first use. The salt is written
 * under a name of its own and linked to `salt`: a link is made whole or not at all, so two
 * processes starting at once agree on one salt.
 */
export function openMachine(root: string, scope: string, engines: () => ProcessId[]): SharedMachine {
  const dir = path.join(root, `machine-${createHash("sha256").update(scope).digest("hex").slice(0, 16)}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, "salt");
  let salt: string;
  try {
    salt = readFileSync(file, "utf8");
  } catch {
    const mine = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(mine, randomBytes(24).toString("hex"), { mode: 0o600 });
    try {
      linkSync(mine, file);
    } catch (err) {
      if (!(err instanceof Error && "code" in err && err.code === "EEXIST")) throw err;
    } finally {
      rmSync(mine, { force: true });
    }
    salt = readFileSync(file, "utf8");
  }
  return new SharedMachine(dir, salt, engines);
}
