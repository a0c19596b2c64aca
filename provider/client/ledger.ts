import type { CollectionName } from "./capabilities.js";
import { CreateGate } from "./create-gate.js";

/** What a check of the list decided about the new objects that match its create (see `CreateLedger.pick`). */
export type Picked = { id: string } | { ambiguous: string[] } | { none: true };

/**
 * When a ledger's waits give up: the operation's deadline (`at`, epoch ms by `now`, the clock of
 * the client whose create waits). A ledger shared on disk waits on other processes (a lock, their
 * creates in flight, their checks), and none of those waits may outlast the operation's budget.
 */
export interface Until {
  at: number;
  now(): number;
}

/**
 * What the creates of one account know together: the ids made or adopted (so two creates never
 * take one object), the creates in flight and the checks of the list (so a check never takes an
 * object whose create has not heard back yet), and how many creates of each body may have made an
 * object nobody has claimed. A client keeps one in memory (`MemoryLedger`); the processes of one
 * Pulumi deployment share one on disk, because the engine runs a plugin process per provider
 * instance and identical creates of one account may be sent by several of them.
 */
export interface CreateLedger {
  /** Sends one create of `collection` (`fn` sends it and claims its id); held while a check that could want `body` waits or runs. */
  send<T>(collection: CollectionName, body: unknown, fn: () => Promise<T>, until?: Until): Promise<T>;
  /**
   * Runs one check of `collection`'s list once no create whose body it `wants` is in flight (calling
   * `onWait` first when it has to wait); such creates sent meanwhile wait for it.
   */
  check<T>(
    collection: CollectionName,
    wants: (body: unknown) => boolean,
    fn: () => Promise<T>,
    onWait?: () => void,
    until?: Until,
  ): Promise<T>;
  /** Marks an id as made or adopted; false (and nothing marked) when it was taken already. */
  claim(id: string, until?: Until): Promise<boolean>;
  /**
   * Counts creates of one body (`key`, from `bodyKey`) whose last attempt has an unknown outcome
   * and that have not yet adopted an object or been sent again: each may have made one object.
   */
  unsettle(collection: CollectionName, key: string, by: 1 | -1, until?: Until): Promise<void>;
  /**
   * Within a check, for a create of body `key` whose outcome is unknown: of `candidates` (new
   * objects matching it, in list order), those nobody claimed. More of them than creates of this
   * body waiting for theirs: `ambiguous`, nothing taken. Else the first is claimed for it (and it
   * no longer counts as waiting), or `none`.
   */
  pick(collection: CollectionName, key: string, candidates: readonly string[], until?: Until): Promise<Picked>;
}

/** The ledger of one client, in memory: what one process knows. */
export class MemoryLedger implements CreateLedger {
  private readonly claimed = new Set<string>();
  private readonly gates = new Map<CollectionName, CreateGate>();

  send<T>(collection: CollectionName, body: unknown, fn: () => Promise<T>): Promise<T> {
    return this.gate(collection).send(body, fn);
  }

  check<T>(
    collection: CollectionName,
    wants: (body: unknown) => boolean,
    fn: () => Promise<T>,
    onWait?: () => void,
  ): Promise<T> {
    return this.gate(collection).check(wants, fn, onWait);
  }

  async claim(id: string): Promise<boolean> {
    return this.claimSync(id);
  }

  async unsettle(collection: CollectionName, key: string, by: 1 | -1): Promise<void> {
    this.gate(collection).unsettle(key, by);
  }

  async pick(collection: CollectionName, key: string, candidates: readonly string[]): Promise<Picked> {
    // No await between reading the claims and claiming: the pick is one step for every other check.
    const gate = this.gate(collection);
    const free = candidates.filter((id) => !this.claimed.has(id));
    if (free.length > gate.unsettledCount(key)) return { ambiguous: free };
    const [first] = free;
    if (first === undefined) return { none: true };
    this.claimSync(first);
    gate.unsettle(key, -1);
    return { id: first };
  }

  private claimSync(id: string): boolean {
    if (this.claimed.has(id)) return false;
    this.claimed.add(id);
    return true;
  }

  /** The gate of one collection's creates and checks. */
  private gate(collection: CollectionName): CreateGate {
    let gate = this.gates.get(collection);
    if (!gate) {
      gate = new CreateGate();
      this.gates.set(collection, gate);
    }
    return gate;
  }
}
