import { isRouteMissing, type Capabilities, type Collection } from "./capabilities.js";

/** An object the service lists: all that reconciliation needs is its id. */
export interface Listed {
  id: string;
}

/**
 * The ids of each kind that existed before a client's first create of that kind, so that an
 * object someone else made before is never taken for one of ours. Per client: a later client's
 * snapshot may hold objects an earlier one made, which only makes it take fewer.
 */
export class Snapshots {
  private readonly before = new Map<Collection, Promise<Set<string> | undefined>>();

  constructor(private readonly caps: Capabilities) {}

  /** The ids that existed before this client's first create of `kind`; undefined without a list route. */
  of(kind: Collection, list: () => Promise<Listed[]>): Promise<Set<string> | undefined> {
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
}
