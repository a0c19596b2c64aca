import { readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { lock } from "proper-lockfile";
import { freshPace, type PaceState, type PaceStore } from "../client/pace.js";
import { running, startedAt, type SharedDeployment } from "./deployment.js";
import type { ProcessId, Room } from "./machine.js";

/**
 * One token's pacing state (client/pace.ts), shared by every provider process of every deployment
 * of this user on this machine through the machine's folder (coordination/machine.ts; a deployment
 * made without one keeps it in its own folder).
 *
 * Why the machine: twenty stacks of one account deploying at once on one runner each run their own
 * engine; pacing per deployment, each would learn the limit alone and meet its own 429s. One
 * schedule for the token's every process, whatever its deployment, sends at the one rate the
 * service allows the token. A state whose every process is gone (`users`: pid and start time of
 * each process that wrote it) is started afresh: a deployment that runs alone paces as if no other
 * had run before it.
 *
 * Why: the service limits the token, and the engine may run several processes that send with it
 * (two explicit providers, the plugin beside the dynamic provider host). Each pacing alone learns
 * the limit from its own requests and sends at its own rate; together they send the sum and meet
 * the 429s each would have avoided alone. Shared, they take their turns from one schedule paced to
 * one learned rate, learned from all their requests.
 *
 * What is on disk, per token (named by a hash salted with the deployment's key: the token is
 * never written): `pace-<hash>.json`, the state (the learned rate, when the next request may go,
 * the counts the rate is cut and raised by), changed only under its lock; and
 * `pace-<hash>.sent.<pid>.<id>`, each process's count of requests of the last second, written by that
 * process alone at most every `PUBLISH_MS` while no limit is known, so that the first 429 learns
 * the rate every process sent, not one process's share.
 *
 * Cost: while no limit is known, a request reads the state at most every `PEEK_MS` and locks
 * nothing. Once one is, each step (a request's turn, a 429) takes the lock, reads and writes the
 * state: a few small file operations, committed in groups (every step asked for while the lock is
 * taken or held goes under it at once), measured at well under a millisecond per request
 * (test/provider/shared-pace.test.ts) against the tens of ms between turns under any limit
 * worth pacing to.
 *
 * Crash safety: a turn is a time on the schedule, not something held: a process killed after
 * taking its turn leaves one slot of 1/rate unused. A process killed holding the lock (for the
 * microseconds of a step) leaves it until it is `STALE_MS` old, when proper-lockfile lets another
 * take it over: a step waits for the lock as long as it is held, since a holder alive refreshes
 * it every `STALE_MS / 2` (proper-lockfile's update) and one dead or stuck stops refreshing it, so
 * the wait for a crashed holder is at most `STALE_MS`, once. Why not give up sooner: a step that
 * ran without the lock would pace on this process's last view at the whole token's rate, not at
 * its share of the schedule, and send with every other process the sum of their rates: on a loaded
 * machine a live holder (descheduled, or its event loop busy with its own requests) keeps the lock
 * for hundreds of ms, and a step that gave up after 250 ms met the 429s sharing is for. Waiting
 * costs only time, which the schedule would have spent anyway. Only a lock that cannot be taken for
 * another reason than being held (the folder unwritable) runs the step on this process's last
 * view without writing it: the process paces alone, as it would without a deployment. A state
 * file that does not parse (a release that wrote another shape) is started afresh: the worst is
 * one more first 429.
 *
 * Clocks: every process sharing the folder runs on one machine (the folder's name holds the boot
 * and PID namespace), so they share the wall clock, which the state's times are in. A clock set back
 * would leave the next turn far ahead: the state keeps the latest time a step saw, and a step at an
 * earlier one moves the times still ahead back with the clock (client/pace.ts `paceClock`); a state
 * written without it has a next turn more than `MAX_AHEAD_MS` ahead, or any other time in the
 * future, taken as now.
 */
export class SharedPace implements PaceStore {
  private readonly file: string;
  private readonly sentPrefix: string;
  private readonly batch: { pending: PaceStep[]; running: boolean } = { pending: [], running: false };
  /** The state as this process last read or wrote it. */
  private view: PaceState = freshPace();
  private viewAt = Number.NEGATIVE_INFINITY;
  private peeking: Promise<void> | undefined;
  private publishedAt = Number.NEGATIVE_INFINITY;
  /** This store's file of counts (`pace-<hash>.sent.<pid>.<id>`: two hosts of one process are two senders). */
  private readonly mine: string;
  private latest = 0;
  private trailing: NodeJS.Timeout | undefined;

  /** Where the state lives: the machine's folder. */
  private readonly room: Room;
  /** The processes that wrote the state as last read, still running (written back with this one). */
  private users: ProcessId[] = [];
  private readonly me: ProcessId = { pid: process.pid, started: startedAt(process.pid) };

  constructor(
    deployment: SharedDeployment,
    token: string,
    readonly now: () => number = Date.now,
  ) {
    this.room = deployment.machine;
    const name = `pace-${this.room.hashed("pace", token)}`;
    this.file = path.join(this.room.dir, `${name}.json`);
    this.sentPrefix = `${name}.sent.`;
    this.mine = `${this.sentPrefix}${process.pid}.${randomUUID().slice(0, 8)}`;
    if (this.room.firstTime("pace")) void this.tidy().catch(() => undefined);
  }

  /**
   * Removes what processes that are gone left in the machine's folder: their counts, and the
   * states none of whose writers runs, each under its lock (a state locked this instant is in use).
   */
  private async tidy(): Promise<void> {
    for (const name of await readdir(this.room.dir)) {
      const file = path.join(this.room.dir, name);
      const sent = /^pace-[0-9a-f]+\.sent\.(\d+)\./.exec(name);
      if (sent) {
        if (!running({ pid: Number(sent[1]), started: "" })) await rm(file, { force: true });
        continue;
      }
      if (!/^pace-[0-9a-f]+\.json$/.test(name)) continue;
      let release: (() => Promise<void>) | undefined;
      try {
        release = await lock(file, LOCK);
        const users = usersOf(safeJson(await readFile(file, "utf8")));
        if (users && !users.some(running)) await rm(file, { force: true });
      } catch {
        // Locked by a process at work, or being replaced: left for the next tidy.
      } finally {
        await release?.().catch(() => undefined);
      }
    }
  }

  async limited(): Promise<boolean> {
    if (this.now() - this.viewAt >= PEEK_MS) {
      this.peeking ??= this.read()
        .then((s) => this.keep(s))
        .catch(() => undefined)
        .finally(() => {
          this.peeking = undefined;
        });
      await this.peeking;
    }
    return this.view.rate !== undefined;
  }

  async peek(): Promise<PaceState> {
    await this.limited();
    return this.view;
  }

  update<R>(step: (state: PaceState, sentElsewhere: () => Promise<number>) => R | Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.batch.pending.push({
        // Applied under the lock; the caller hears the result once the state is written.
        apply: async (s) => {
          try {
            const result = await step(s, () => this.sentElsewhere());
            return () => resolve(result);
          } catch (err) {
            return () => reject(err);
          }
        },
        fail: reject,
      });
      if (!this.batch.running) void this.drain();
    });
  }

  publishSent(count: number): Promise<void> {
    this.latest = count;
    const now = this.now();
    const due = this.publishedAt + PUBLISH_MS - now;
    if (due <= 0) return this.tell(now);
    // Too soon after the last: told when it is due (once), so a burst's count is at most
    // `PUBLISH_MS` old when another process's first 429 reads it.
    this.trailing ??= setTimeout(() => {
      this.trailing = undefined;
      void this.tell(this.now());
    }, due).unref();
    return Promise.resolve();
  }

  /** Writes this process's latest count (best effort: a count not told only makes a first 429 learn a lower rate, which then climbs). */
  private tell(now: number): Promise<void> {
    this.publishedAt = now;
    const file = path.join(this.room.dir, this.mine);
    const temp = `${file}.tmp`;
    return writeFile(temp, JSON.stringify({ count: this.latest, at: now }), { mode: 0o600 })
      .then(() => rename(temp, file))
      .catch(() => undefined);
  }

  /** The requests the other processes told they sent in the second before now. */
  private async sentElsewhere(): Promise<number> {
    const now = this.now();
    let total = 0;
    for (const name of await readdir(this.room.dir)) {
      if (!name.startsWith(this.sentPrefix) || name === this.mine || name.endsWith(".tmp")) continue;
      try {
        const file = path.join(this.room.dir, name);
        const told = sentOf(safeJson(await readFile(file, "utf8")));
        if (!told) continue;
        // The count of a process that is gone (its pid is in the name) says nothing any more: removed.
        const pid = Number(name.slice(this.sentPrefix.length).split(".")[0]);
        if (!running({ pid, started: "" })) {
          await rm(file, { force: true });
          continue;
        }
        // A count told more than a second ago says nothing of the second before this 429 (and a
        // process that died told nothing since).
        if (now - told.at <= WINDOW_MS + PUBLISH_MS && told.at <= now + PUBLISH_MS) total += told.count;
      } catch {
        // Being replaced this instant, or debris: counts as nothing.
      }
    }
    return total;
  }

  /** The state as last written, with every time in the future taken as now (`Clocks` above). */
  private async read(): Promise<PaceState> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (err) {
      if (err instanceof Error && "code" in err && err.code === "ENOENT") return freshPace();
      throw err;
    }
    const raw = safeJson(text);
    const users = usersOf(raw);
    // Every process that paced with it is gone: what they learned is not this run's (a deployment
    // alone starts as it would without a machine's folder).
    this.users = users?.filter(running) ?? [];
    if (users && !this.users.length) return freshPace();
    const s = stateOf(raw);
    if (!s) return freshPace();
    const now = this.now();
    // (Only in a state written without `seenAt`: one that has it is brought to a clock set back
    // by paceClock, and a queue longer than MAX_AHEAD_MS is a low limit's, not a clock's.)
    if (s.seenAt === undefined && s.nextAt > now + MAX_AHEAD_MS) s.nextAt = now;
    for (const k of ["windowAt", "lastLimited", "lastDecrease", "lastIncrease"] as const) s[k] = Math.min(s[k], now);
    if (s.learnedAt !== undefined) s.learnedAt = Math.min(s.learnedAt, now);
    if (s.answeredWindowAt !== undefined) s.answeredWindowAt = Math.min(s.answeredWindowAt, now);
    return s;
  }

  private keep(s: PaceState): void {
    this.view = s;
    this.viewAt = this.now();
  }

  /** Commits the pending steps, group by group, each group under one lock, one read and one write. */
  private async drain(): Promise<void> {
    const batch = this.batch;
    batch.running = true;
    while (batch.pending.length) {
      const group = batch.pending.splice(0);
      const release = await this.lock();
      try {
        // Without the lock (its holder died holding it): this process's last view, not written.
        const state = release ? await this.read() : structuredClone(this.view);
        const answers: (() => void)[] = [];
        for (const step of group) answers.push(await step.apply(state));
        if (release) {
          const temp = `${this.file}.${process.pid}.tmp`;
          const users = [...this.users.filter((u) => u.pid !== this.me.pid), this.me];
          await writeFile(temp, JSON.stringify({ ...state, users }), { mode: 0o600 });
          await rename(temp, this.file);
        }
        this.keep(state);
        for (const answer of answers) answer();
      } catch (err) {
        for (const step of group) step.fail(err);
      } finally {
        await release?.().catch(() => undefined);
      }
    }
    batch.running = false;
  }

  /**
   * Takes the state's lock, trying again as long as another holds it (`Crash safety` above: a
   * dead holder's lock is taken over once `STALE_MS` old); undefined if it cannot be taken for
   * another reason.
   */
  private async lock(): Promise<(() => Promise<void>) | undefined> {
    for (let round = 0; ; round++) {
      try {
        return await lock(this.file, LOCK);
      } catch (err) {
        if (!(err instanceof Error && "code" in err && err.code === "ELOCKED")) return undefined;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(20, 1 + 2 * round) * (0.5 + Math.random())));
    }
  }
}

/** One step waiting for the lock. */
interface PaceStep {
  /** Changes the state; returns how to answer the caller once it is written. */
  apply: (s: PaceState) => Promise<() => void>;
  fail: (err: unknown) => void;
}

// Checked by hand, not by zod: the program's own process loads the host (provider/host.ts), and
// with it this module; a program that declares no fleet loads no zod (coordination/deployment.ts).

/** A process's count of requests (`publishSent`), or undefined when the text is not one. */
function sentOf(v: unknown): { count: number; at: number } | undefined {
  if (typeof v !== "object" || v === null || !("count" in v) || !("at" in v)) return undefined;
  const { count, at } = v;
  return typeof count === "number" && count >= 0 && typeof at === "number" ? { count, at } : undefined;
}

const TIMES = ["nextAt", "windowAt", "lastLimited", "lastDecrease", "lastIncrease", "ignoreUntil"] as const;
const COUNTS = [
  "sentInWindow",
  "sentLastWindow",
  "answeredSinceDecrease",
  "sentSinceDecrease",
  "limitedSinceDecrease",
] as const;

/** The processes that wrote a state (`SharedPace.users`), or undefined when it names none (a release before 0.6.0). */
function usersOf(v: unknown): ProcessId[] | undefined {
  if (typeof v !== "object" || v === null || !("users" in v) || !Array.isArray(v.users)) return undefined;
  const users: ProcessId[] = [];
  const list: unknown[] = v.users;
  for (const u of list) {
    if (typeof u !== "object" || u === null || !("pid" in u) || !("started" in u)) continue;
    const { pid, started } = u;
    if (typeof pid === "number" && Number.isInteger(pid) && typeof started === "string") users.push({ pid, started });
  }
  return users;
}

/** The state a file holds, or undefined when it is not one (then the pace starts afresh). */
function stateOf(v: unknown): PaceState | undefined {
  if (typeof v !== "object" || v === null) return undefined;
  const s = freshPace();
  const fields = new Map<string, unknown>(Object.entries(v));
  const field = (k: string): unknown => fields.get(k);
  for (const k of [...TIMES, ...COUNTS]) {
    const x = field(k);
    if (typeof x !== "number" || !Number.isFinite(x)) return undefined;
    s[k] = x;
  }
  const rate = field("rate");
  const below = field("belowAnswered");
  if (typeof below !== "boolean") return undefined;
  s.belowAnswered = below;
  // The latest time a step saw (client/pace.ts paceClock): absent where a release wrote none.
  const ticket = field("ticket");
  if (typeof ticket === "number" && Number.isFinite(ticket)) s.ticket = ticket;
  const seenAt = field("seenAt");
  if (typeof seenAt === "number" && Number.isFinite(seenAt)) s.seenAt = seenAt;
  // When the service last answered the token (Pacer.answeredWithin): absent where a release wrote none.
  const answeredAt = field("answeredAt");
  if (typeof answeredAt === "number" && Number.isFinite(answeredAt)) s.answeredAt = answeredAt;
  // What the service answered lately (client/pace.ts `RECENT_MS`): absent where a release wrote none.
  for (const k of ["learnedAt", "answeredWindowAt", "answeredInWindow", "answeredLastWindow"] as const) {
    const x = field(k);
    if (typeof x === "number" && Number.isFinite(x)) s[k] = x;
  }
  const ceiling = field("ceiling");
  if (ceiling !== undefined) {
    if (typeof ceiling !== "number" || !(ceiling > 0) || !Number.isFinite(ceiling)) return undefined;
    s.ceiling = ceiling;
  }
  if (rate === undefined) return s;
  if (typeof rate !== "number" || !(rate > 0) || !Number.isFinite(rate)) return undefined;
  s.rate = rate;
  return s;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** How long a process's view of whether a limit is known is used before it is read again. */
const PEEK_MS = 100;
/** How often a process tells its count of requests while no limit is known. */
const PUBLISH_MS = 100;
/** The window the counts are over (the pacer's). */
const WINDOW_MS = 1_000;
/** A next turn further ahead than this is a clock set back, not a queue. */
const MAX_AHEAD_MS = 5 * 60_000;
/**
 * How long a lock may go unrefreshed before another process takes it over (proper-lockfile's
 * least): a step holds it for well under a millisecond, so only a holder that died loses it.
 */
const STALE_MS = 2_000;

const LOCK = {
  realpath: false,
  stale: STALE_MS,
  retries: 0,
  // A lost lock only means one step may have raced another: the next read sees the state.
  onCompromised: () => undefined,
};
