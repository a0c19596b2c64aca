import { randomUUID } from "node:crypto";
import { CoordinationError } from "./coordination-error.js";
import { readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { lock } from "proper-lockfile";
import { z } from "zod";
import { COLLECTIONS, type CreateLedger, type CollectionName, type Picked, type Until } from "../client/index.js";
import { running, startedAt, type SharedDeployment } from "./deployment.js";
import type { ProcessId, Room } from "./machine.js";

/**
 * One create in flight, check of the list, or create waiting for its object, by one ledger of one
 * process. `pid` and `started` (the process's start time, "" where the OS does not tell it): its
 * entries go when the process is gone (killed mid-create, they would hold the others forever),
 * and a later process that got the same pid is not it; `owner`: the ledger within the process
 * (tests run several in one); `expires`: when its operation's deadline passes (wall-clock ms, moved
 * on while its work runs by the time its operation waits for turns under a rate limit, `renewing`),
 * after which it holds nothing, whether or not its removal found the lock free (absent where a
 * release wrote none: it then ends with its process only).
 */
const EntrySchema = z.object({
  pid: z.number().int(),
  started: z.string().default(""),
  owner: z.string(),
  kind: z.enum(COLLECTIONS),
  expires: z.number().optional(),
});
type Entry = z.infer<typeof EntrySchema>;

const ProcessSchema = z.object({ pid: z.number().int(), started: z.string().default("") });

/** The account's ledger as stored: one JSON file, replaced whole under the lock. */
const StateSchema = z.object({
  /**
   * The ids made or adopted, each with the engine of the deployment that took it: the claim lasts
   * while that engine runs (until then its state may not hold the id yet), then retires.
   */
  claims: z.array(ProcessSchema.extend({ id: z.string() })).default([]),
  /**
   * Claims of deployments that ended, kept while a deployment that was running when they ended
   * still runs: its lists were read before those objects existed, so it would see them as new.
   * A deployment started later read them before its first create and never takes them.
   */
  retired: z.array(z.object({ ids: z.array(z.string()), waitFor: z.array(ProcessSchema) })).default([]),
  inFlight: z.array(EntrySchema).default([]),
  checks: z.array(EntrySchema).default([]),
  /** Creates whose outcome is unknown, waiting for their object; `key` is their body's hash. */
  unsettled: z.array(EntrySchema.extend({ key: z.string() })).default([]),
});
type State = z.infer<typeof StateSchema>;

/** Whether an id is held: claimed by a running deployment, or by one that ended while another still ran. */
const claimedOrRetired = (s: State, id: string) =>
  s.claims.some((c) => c.id === id) || s.retired.some((r) => r.ids.includes(id));

/**
 * Retires the claims of deployments whose engine is gone, and drops the retired claims nobody
 * running can take for new any more (see `StateSchema`). Liveness only: no clock.
 */
function retire(s: State, room: Room): void {
  // One look per engine, not per claim: a fleet's hundred claims name one or two engines.
  const seen = new Map<string, boolean>();
  const runs = (p: ProcessId) => {
    const key = `${p.pid}:${p.started}`;
    const known = seen.get(key) ?? running(p);
    seen.set(key, known);
    return known;
  };
  const gone = s.claims.filter((c) => !runs(c));
  if (gone.length) {
    s.claims = s.claims.filter((c) => !gone.includes(c));
    s.retired.push({ ids: gone.map((c) => c.id), waitFor: room.liveEngines() });
  }
  s.retired = s.retired.filter((r) => r.waitFor.some(runs));
}

/** Whether the state holds nothing: its file can go. */
const empty = (s: State) =>
  !s.claims.length && !s.retired.length && !s.inFlight.length && !s.checks.length && !s.unsettled.length;

/** Whether an operation's deadline has passed. */
const expired = (until: Until) => until.now() >= until.at;

/**
 * The create ledger of one account, shared by every provider process of every deployment of this
 * user on this machine (see `CreateLedger`, `SharedDeployment` and coordination/machine.ts): a
 * JSON file changed only under a lock.
 *
 * Why the machine, not the deployment: two stacks of one account deploying at once (staging and
 * production, two pipelines on one runner) send identical creates too, and an object one stack
 * made (in flight, or claimed) would look like its own to the other stack's lost create. So every
 * create, check and claim of the account meets every other on the machine: a check waits for the
 * other stacks' creates of its kind in flight, and never takes an id another deployment claimed.
 * A claim names its deployment's engine, not its process: a provider process may end before its
 * engine has written the id into the stack's state, and the claim must outlive it (`StateSchema`).
 *
 * Why a lock, and which: each step (claim an id; register a create unless a check holds its kind;
 * pick an unclaimed candidate against the count of creates waiting) reads and writes together and
 * must be one step for every process. proper-lockfile takes the lock with an atomic `mkdir`, in
 * plain JavaScript (the plugin is one bundled file, soon a Node single executable: no native
 * addon), and takes over a lock whose holder stopped refreshing it (killed mid-step) once it is
 * `STALE_MS` old. The file is written to a temporary name and renamed over the old one, so a
 * process killed mid-write leaves the last whole state, and readers that only wait never lock.
 *
 * Across processes a check cannot ask another process's creates whether it wants their body, so it
 * holds every create of its kind, and waits for every create of its kind in flight: more waiting
 * than in memory, never less. A check is one read of the list, and only follows an unknown outcome.
 *
 * The account is the token, hashed: two providers that reach one service by two addresses
 * (localhost and 127.0.0.1, an alias) see the same objects, and so must share what they took.
 */
export class SharedLedger implements CreateLedger {
  private readonly file: string;
  private readonly me: { pid: number; started: string; owner: string };
  /** Where the ledger lives: the machine's folder (or, for a deployment made without one, its own). */
  private readonly room: Room;
  /** The engine of this ledger's deployment: its claims last as long as it runs. */
  private readonly engine: ProcessId;
  /** The tidying of the machine's old ledgers this ledger started (the first of its process), or a settled promise. */
  readonly tidying: Promise<void>;
  /** This ledger's steps waiting for the next group (one ledger per account in a host). */
  private readonly batch: Batch = { pending: [], running: false };

  /**
   * `now`: the wall clock the entries' `expires` are in (one machine: every process shares it).
   * `tick`: the pause between renewals of this ledger's entries while their work runs (`renewing`).
   */
  constructor(
    deployment: SharedDeployment,
    token: string,
    private readonly now: () => number = Date.now,
    private readonly tick: () => Promise<void> = renewal,
  ) {
    this.room = deployment.machine;
    this.engine = deployment.engine;
    this.file = path.join(this.room.dir, `ledger-${this.room.hashed("account", token)}.json`);
    this.me = { pid: process.pid, started: startedAt(process.pid), owner: randomUUID() };
    this.tidying = this.room.firstTime("ledgers") ? this.tidy().catch(() => undefined) : Promise.resolve();
  }

  /**
   * Removes the ledgers of the machine's folder that hold nothing any more (every process and
   * deployment that wrote them gone), each under its lock; a file locked this instant is left for
   * the next tidy. A ledger in use tidies itself: a step that leaves it empty removes it.
   */
  private async tidy(): Promise<void> {
    for (const name of await readdir(this.room.dir)) {
      if (!/^ledger-[0-9a-f]+\.json$/.test(name)) continue;
      const file = path.join(this.room.dir, name);
      let release: (() => Promise<void>) | undefined;
      try {
        release = await lock(file, LOCK);
        const state = await readLedger(file, this.now());
        retire(state, this.room);
        if (empty(state)) await rm(file, { force: true });
      } catch {
        // Locked by a process at work, or unreadable: not ours to judge now.
      } finally {
        await release?.().catch(() => undefined);
      }
    }
  }

  /**
   * A create that answered keeps its answer only if its entry is removed: a failure there (the
   * folder removed, the lock not taken in time) rejects, and the client keeps the object's id it
   * knows (client/reconcile.ts). A create that failed keeps its own error: the service's answer
   * says more than the bookkeeping's, and an entry left behind ends with its operation (it expires).
   */
  async send<T>(kind: CollectionName, _body: unknown, fn: () => Promise<T>, until?: Until): Promise<T> {
    const by = this.deadline(until);
    const entry: Entry = { ...this.me, kind, expires: this.expiry(by) };
    for (let round = 0; ; round++) {
      const registered = await this.update((s) => {
        if (s.checks.some((c) => c.kind === kind)) return false;
        s.inFlight.push(entry);
        return true;
      }, by);
      if (registered) break;
      if (expired(by))
        throw new CoordinationError(
          "E_TIMEOUT",
          `a check of the ${kind} list by another provider process of this account on this machine still held this create at the ` +
            `operation's deadline; nothing was sent: run the command again (or give the resource a longer customTimeouts)`,
        );
      await pause(round);
    }
    let result: T;
    try {
      result = await this.renewing("inFlight", entry, by, fn);
    } catch (err) {
      await this.update((s) => void remove(s.inFlight, sameEntry(entry)), by).catch(() => undefined);
      throw err;
    }
    await this.update((s) => void remove(s.inFlight, sameEntry(entry)), by);
    return result;
  }

  /**
   * Runs `fn` while renewing `entry` (of `list`) each `tick`: its `expires` moves with its deadline
   * `by`, whose clock stops while the operation's requests wait for their turns under a learned
   * rate limit (client/reconcile.ts). A create whose turn comes minutes after it was registered is
   * still in flight for the other processes' checks when it is sent; one whose process stalls or
   * whose renewals meet a busy lock still ends with its operation as the other processes see it.
   */
  private async renewing<T>(list: "inFlight" | "checks", entry: Entry, by: Until, fn: () => Promise<T>): Promise<T> {
    let done = false;
    const renew = async () => {
      for (;;) {
        await this.tick();
        if (done) return;
        const expires = this.expiry(by);
        if (entry.expires !== undefined && expires <= entry.expires) continue;
        entry.expires = expires;
        await this.update((s) => {
          const mine = s[list].find(sameEntry(entry));
          if (mine) mine.expires = expires;
        }, by).catch(() => undefined);
      }
    };
    void renew();
    try {
      return await fn();
    } finally {
      done = true;
    }
  }

  async check<T>(
    kind: CollectionName,
    _wants: (body: unknown) => boolean,
    fn: () => Promise<T>,
    onWait?: () => void,
    until?: Until,
  ): Promise<T> {
    const by = this.deadline(until);
    const entry: Entry = { ...this.me, kind, expires: this.expiry(by) };
    await this.update((s) => void s.checks.push(entry), by);
    let result: T;
    try {
      for (let round = 0; (await this.read()).inFlight.some((e) => e.kind === kind); round++) {
        if (round === 0) onWait?.();
        if (expired(by))
          throw new CoordinationError(
            "E_TIMEOUT",
            `creates of ${kind} sent by other provider processes of this account on this machine were still waiting for their answers at ` +
              `the operation's deadline, so the list could not be checked; nothing was sent: run the command again ` +
              "(or give the resource a longer customTimeouts)",
          );
        await pause(round);
      }
      result = await this.renewing("checks", entry, by, fn);
    } catch (err) {
      await this.update((s) => void remove(s.checks, sameEntry(entry)), by).catch(() => undefined);
      throw err;
    }
    await this.update((s) => void remove(s.checks, sameEntry(entry)), by);
    return result;
  }

  claim(id: string, until?: Until): Promise<boolean> {
    return this.update((s) => {
      if (claimedOrRetired(s, id)) return false;
      s.claims.push({ ...this.engine, id });
      return true;
    }, this.deadline(until));
  }

  async unsettle(kind: CollectionName, key: string, by: 1 | -1, until?: Until): Promise<void> {
    const deadline = this.deadline(until);
    const entry = { ...this.me, kind, key: this.room.hashed("body", key), expires: this.expiry(deadline) };
    await this.update(
      (s) =>
        void (by === 1
          ? s.unsettled.push(entry)
          : remove(s.unsettled, (u) => sameEntry(entry)(u) && u.key === entry.key)),
      deadline,
    );
  }

  pick(kind: CollectionName, key: string, candidates: readonly string[], until?: Until): Promise<Picked> {
    const entry = { ...this.me, kind, key: this.room.hashed("body", key) };
    return this.update((s): Picked => {
      // Never an id another create took, in this deployment or another of the machine.
      const free = candidates.filter((id) => !claimedOrRetired(s, id));
      const waiting = s.unsettled.filter((u) => u.kind === kind && u.key === entry.key).length;
      if (free.length > waiting) return { ambiguous: free };
      const [first] = free;
      if (first === undefined) return { none: true };
      s.claims.push({ ...this.engine, id: first });
      remove(s.unsettled, (u) => sameEntry(entry)(u) && u.key === entry.key);
      return { id: first };
    }, this.deadline(until));
  }

  /** The caller's deadline, or for a caller that gives none (a test, a tool) `DEFAULT_WAIT_MS` from now. */
  private deadline(until: Until | undefined): Until {
    return until ?? { at: Date.now() + DEFAULT_WAIT_MS, now: Date.now };
  }

  /** When an operation with deadline `by` ends, on this ledger's wall clock (`by` may run on another). */
  private expiry(by: Until): number {
    return this.now() + (by.at - by.now());
  }

  /** The state as last written, without the entries of processes that are gone or of operations that ended. */
  private read(): Promise<State> {
    return readLedger(this.file, this.now());
  }

  /**
   * Runs `change` on the state under the lock and writes the result (temporary file, then rename).
   * Steps of this process are committed in groups: a plugin may have hundreds of creates at once,
   * and one lock, read and write per step would queue them for seconds; so every step asked for
   * while the lock is being taken or held goes into the next group, applied in order under one lock.
   */
  private update<R>(change: (s: State) => R, until: Until): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const batch = this.batch;
      batch.pending.push({
        // Applied under the lock; the caller hears the result only once the state is written.
        apply: (s) => {
          try {
            const result = change(s);
            return () => resolve(result);
          } catch (err) {
            return () => reject(err);
          }
        },
        fail: reject,
        until,
      });
      if (!batch.running) void this.drain(batch);
    });
  }

  /** Commits the pending steps of this file, group by group, until none is left. */
  private async drain(batch: Batch): Promise<void> {
    batch.running = true;
    while (batch.pending.length) {
      const group = batch.pending.splice(0);
      try {
        const release = await this.lock(group);
        if (!release) continue;
        try {
          const state = await this.read();
          retire(state, this.room);
          // A step that throws fails alone; the others' changes are kept.
          const answers = group.map((step) => step.apply(state));
          if (empty(state)) {
            // Nothing left to share: no file (a reader without the lock sees an empty ledger either way).
            await rm(this.file, { force: true });
          } else {
            const temp = `${this.file}.${process.pid}.tmp`;
            await writeFile(temp, JSON.stringify(state), { mode: 0o600 });
            await rename(temp, this.file);
          }
          for (const answer of answers) answer();
        } finally {
          await release().catch(() => undefined);
        }
      } catch (err) {
        for (const step of group) step.fail(err);
      }
      // proper-lockfile is not fair: another process polls for the lock while this one could take
      // it again at once, group after group. A short pause leaves it a window (and makes the next
      // group bigger).
      if (batch.pending.length) await new Promise((resolve) => setTimeout(resolve, Math.random() * 10));
    }
    batch.running = false;
  }

  /**
   * Takes the file's lock for `group`, trying again while another process holds it; each step
   * whose deadline passes first fails (and leaves the group). Undefined once none is left.
   */
  private async lock(group: Step[]): Promise<(() => Promise<void>) | undefined> {
    for (let round = 0; ; round++) {
      try {
        return await lock(this.file, LOCK);
      } catch (err) {
        if (!(err instanceof Error && "code" in err && err.code === "ELOCKED")) throw err;
      }
      for (const step of group.filter((s) => expired(s.until))) {
        group.splice(group.indexOf(step), 1);
        step.fail(
          new CoordinationError(
            "E_TIMEOUT",
            `the lock of this account's record of creates on this machine (${path.basename(this.file)}) was still held by ` +
              `another provider process at the operation's deadline; this step sent nothing: run the command again`,
          ),
        );
      }
      if (!group.length) return undefined;
      await pause(round);
    }
  }
}

/** One step waiting for the lock: `apply` changes the state and returns how to answer its caller once the state is written. */
interface Step {
  apply: (s: State) => () => void;
  fail: (err: unknown) => void;
  /** When it stops waiting for the lock. */
  until: Until;
}

/** The steps of one ledger waiting for the lock. */
interface Batch {
  pending: Step[];
  running: boolean;
}

/**
 * How long a lock may go unrefreshed before another process takes it over. proper-lockfile
 * refreshes a held lock every STALE_MS / 2; a step holds it for milliseconds, so only a holder that
 * was killed (or stalled that long) loses it.
 */
const STALE_MS = 10_000;

/**
 * How long a step whose caller gives no deadline waits for the lock or for other processes: about
 * a minute, enough to outwait a stale lock of a killed holder (STALE_MS) and a busy machine.
 * Creates give their operation's deadline instead (customTimeouts, voiceagent:operationTimeout).
 */
const DEFAULT_WAIT_MS = 60_000;

/**
 * How often an entry whose work runs is renewed (`renewing`): well within any operation's budget
 * (minutes), so its `expires` moves before it passes, and rare enough to cost the lock little.
 */
const RENEW_MS = 5_000;

/** The default `tick`: RENEW_MS, on a timer that keeps no process alive (a renewal left pending ends with it). */
function renewal(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, RENEW_MS).unref());
}

const LOCK = {
  realpath: false,
  stale: STALE_MS,
  // One try per call: `lock` (the method) tries again, up to each step's deadline.
  retries: 0,
  // The default throws from a timer, which would end the plugin; a lost lock only means this step
  // may have raced another, which the next step's read sees.
  onCompromised: () => undefined,
};

/**
 * The state a ledger file holds, without the entries of processes that are gone or of operations
 * whose deadline passed before `now` (wall-clock ms).
 */
async function readLedger(file: string, now: number): Promise<State> {
  let text = "{}";
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if (!(err instanceof Error && "code" in err && err.code === "ENOENT")) throw err;
  }
  const state = StateSchema.parse(JSON.parse(text));
  const live = (e: Entry) => (e.expires === undefined || e.expires > now) && running(e);
  return {
    claims: state.claims,
    retired: state.retired,
    inFlight: state.inFlight.filter(live),
    checks: state.checks.filter(live),
    unsettled: state.unsettled.filter(live),
  };
}

/** Whether an entry is `entry`'s: the same process, ledger and kind. */
const sameEntry = (entry: Entry) => (e: Entry) =>
  e.pid === entry.pid && e.owner === entry.owner && e.kind === entry.kind;

/** Removes the first entry of `list` that `is` accepts. */
function remove<E>(list: E[], is: (e: E) => boolean): void {
  const at = list.findIndex(is);
  if (at >= 0) list.splice(at, 1);
}

/** The pause between looks at the state while waiting: short at first, growing to 50 ms. */
function pause(round: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(50, 2 + 4 * round)));
}
