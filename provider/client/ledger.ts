import { isRouteMissing, type Capabilities, type Collection } from "./capabilities.js";
import { CreateGate } from "./create-gate.js";

/** An object the service lists: all that reconciliation needs is its id. */
export interface Listed {
  id: string;
}

/**
 * What a client knows about the objects of each kind: the ids that existed before its first create
 * of that kind (so an object someone else made before is never taken for ours), the ids it created
 * or adopted since (so two creates never take the same object), and the gate that keeps each
 * kind's checks of the list apart from its creates in flight.
 */
export class CreateLedger {
  private readonly before = new Map<Collection, Promise<Set<string> | undefined>>();
  private readonly claimed = new Set<string>();
  private readonly gates = new Map<Collection, CreateGate>();

  constructor(private readonly caps: Capabilities) {}

  /** The ids that existed before this client's first create of `kind`; undefined without a list route. */
  snapshot(kind: Collection, list: () => Promise<Listed[]>): Promise<Set<string> | undefined> {
    let ids = this.before.get(kind);
    if (!ids) {
      ids = list().then(
        (items) => {
          this.caps.learn(kind, true);
          return new Set(items.map((i) => i.id));
        },
        (err: unknown) => {
          if (isRouteMissing(err)) {
            this.caps.learn(kind, false);
            return undefined;
          }
          this.before.delete(kind);
          throw err;
        },
      );
      this.before.set(kind, ids);
    }
    return ids;
  }

  /** The gate of one kind's creates and checks. */
  gate(kind: Collection): CreateGate {
    let gate = this.gates.get(kind);
    if (!gate) {
      gate = new CreateGate();
      this.gates.set(kind, gate);
    }
    return gate;
  }

  /** Marks an id as made or adopted by this client; false (and nothing marked) when it was taken already. */
  claim(id: string): boolean {
    if (this.claimed.has(id)) return false;
    this.claimed.add(id);
    return true;
  }

  /** True when the id was neither there before nor taken by another create. */
  isNew(id: string, before: Set<string>): boolean {
    return !before.has(id) && !this.claimed.has(id);
  }
}
