/**
 * The order of one kind's creates and checks. A check of the list (after a create whose outcome is
 * unknown) must not run while another create of the kind is in flight: that create may already
 * have made its object without having heard back, and the check would take that object for its
 * own, so two resources would get one id. So a check waits until every create in flight has
 * answered (and claimed its id), and holds new creates back until it is done; creates run in
 * parallel with each other, checks run one at a time.
 */
export class CreateGate {
  private inFlight = 0;
  private checking = false;
  private readonly checks: (() => void)[] = [];
  private held: (() => void)[] = [];
  private readonly unsettled = new Map<string, number>();

  /** Sends one create (`fn` sends it and claims its id); held while a check waits or runs. */
  async send<T>(fn: () => Promise<T>): Promise<T> {
    while (this.checking || this.checks.length > 0) await new Promise<void>((resolve) => this.held.push(resolve));
    this.inFlight += 1;
    try {
      return await fn();
    } finally {
      this.inFlight -= 1;
      this.pump();
    }
  }

  /** Runs one check once no create of the kind is in flight; creates sent meanwhile wait for it. */
  async check<T>(fn: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      this.checks.push(resolve);
      this.pump();
    });
    try {
      return await fn();
    } finally {
      this.checking = false;
      this.pump();
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

  private pump(): void {
    if (this.checking) return;
    const next = this.checks.shift();
    if (next) {
      // Put back until the creates in flight have answered; `checking` is set now, not when the
      // promise resolves, so no create slips in between.
      if (this.inFlight > 0) {
        this.checks.unshift(next);
        return;
      }
      this.checking = true;
      next();
      return;
    }
    const held = this.held;
    this.held = [];
    for (const resume of held) resume();
  }
}
