/** A create in flight: the body it sent. */
interface Sending {
  body: unknown;
}

/** A check of the list: which bodies could make an object it would take for its own. */
interface Checking {
  wants(body: unknown): boolean;
}

/**
 * The order of one collection's creates and checks. A check of the list (after a create whose outcome is
 * unknown) must not run while another create that could make a matching object is in flight: that
 * create may already have made its object without having heard back, and the check would take the
 * object for its own, so two resources would get one id. So a check waits until every such create
 * in flight has answered (and claimed its id), and holds new such creates back until its list has
 * been read and its pick claimed. Creates that no check wants, and checks of each other, run in
 * parallel.
 */
export class CreateGate {
  private readonly inFlight = new Set<Sending>();
  private readonly checks = new Set<Checking>();
  private waiting: (() => void)[] = [];
  private readonly unsettled = new Map<string, number>();

  /** Sends one create (`fn` sends it and claims its id); held while a check that wants `body` waits or runs. */
  async send<T>(body: unknown, fn: () => Promise<T>): Promise<T> {
    while ([...this.checks].some((c) => c.wants(body))) await this.changed();
    const entry: Sending = { body };
    this.inFlight.add(entry);
    try {
      return await fn();
    } finally {
      this.inFlight.delete(entry);
      this.notify();
    }
  }

  /**
   * Runs one check once no create whose body it `wants` is in flight (calling `onWait` first when it
   * has to wait); such creates sent meanwhile wait for it.
   */
  async check<T>(wants: (body: unknown) => boolean, fn: () => Promise<T>, onWait?: () => void): Promise<T> {
    const entry: Checking = { wants };
    this.checks.add(entry);
    try {
      const blocked = () => [...this.inFlight].some((s) => wants(s.body));
      if (blocked()) onWait?.();
      while (blocked()) await this.changed();
      return await fn();
    } finally {
      this.checks.delete(entry);
      this.notify();
    }
  }

  /**
   * Counts creates of one body (`key`) whose last attempt has an unknown outcome and that have not
   * yet adopted an object or been sent again: each may have made one object, so that many
   * identical candidates in the list are theirs, and any assignment of them is right.
   */
  unsettle(key: string, by: 1 | -1): void {
    const n = (this.unsettled.get(key) ?? 0) + by;
    if (n > 0) this.unsettled.set(key, n);
    else this.unsettled.delete(key);
  }

  /** How many creates of this body may have made an object nobody has claimed yet. */
  unsettledCount(key: string): number {
    return this.unsettled.get(key) ?? 0;
  }

  /** Resolves at the next change of what is in flight or checking. */
  private changed(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private notify(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resume of waiting) resume();
  }
}
