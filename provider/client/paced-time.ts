/**
 * The wall time an operation's requests spent waiting for their turns under a learned rate limit
 * (client/pace.ts), overlapping waits counted once; and for a concurrency slot of their client
 * (client/throttle.ts) when a limit was known as the slot came: the requests holding the slots were
 * then waiting for their turns, so the slot's queue was the limit's too (twenty creates of a stack
 * behind eight slots wait minutes for a slot, seconds for their turn). Not charged to the operation's budget: the
 * queue is the limit's, shared by every request of the token on the machine (twenty stacks' creates
 * behind a limit of two a second wait minutes for their turns), not time spent retrying; a budget
 * that counted it would fail creates that never met an error.
 */
export class PacedTime {
  private waiting = 0;
  private since = 0;
  private total = 0;
  /** A request starts waiting for its turn at `now`. */
  start(now: number): void {
    if (this.waiting++ === 0) this.since = now;
  }
  /**
   * A request's wait ends at `now`. One that turns out not to have been the limit's (`credited`
   * false: a wait for a concurrency slot while no limit was known) adds nothing when it ends alone;
   * overlapping a wait that was, it was inside that one's time anyway.
   */
  end(now: number, credited = true): void {
    if (--this.waiting === 0 && credited) this.total += now - this.since;
  }
  /** The ms waited by `now`, the waits still going included. */
  ms(now: number): number {
    return this.total + (this.waiting > 0 ? now - this.since : 0);
  }
}
