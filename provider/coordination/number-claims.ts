import type { Claim, NumberKind } from "./claims.js";
import type { SharedDeployment } from "./deployment.js";
import type { Invocation } from "./invocation.js";

// Apart from claims.ts (why numbers are claimed, and the refusal): the host holds this from its
// start, in every process, the program's included, which loads neither the client nor the kit.

/**
 * The numbers one process's program declares, by kind, and those its deployment's other processes
 * recorded: the only owner of that map (the host holds one, provider/host.ts).
 */
export class NumberClaims {
  private readonly declared = new Map<NumberKind, Set<string>>();

  /** `deployment`: the one the host joined, if any; `invocation`: the `pulumi` run it serves, if found. */
  constructor(
    private readonly deployment: () => SharedDeployment | undefined,
    private readonly invocation: () => Invocation | undefined,
  ) {}

  /** Records that the program declares `number` in a resource of `kind` (called from check). */
  declare(kind: NumberKind, number: string): void {
    const declared = this.declared.get(kind) ?? new Set<string>();
    this.declared.set(kind, declared.add(number));
    this.deployment()?.mark("declared", kind, number);
  }

  /**
   * What a delete of a `kind` resource holding `number` may do:
   * - `declared`: the program declares the number in another resource of this kind: leave it;
   * - `unseen`: this run leaves resources out (`--target`...), which the engine never checks, so
   *   whether one of them owns the number cannot be known: change nothing and say so;
   * - `free`: no resource of this kind declares it: the delete does its work.
   */
  of(kind: NumberKind, number: string, run: Invocation | undefined = this.invocation()): Claim {
    if (this.declared.get(kind)?.has(number) || this.deployment()?.marked("declared", kind, number))
      return { status: "declared" };
    return run?.limitedBy ? { status: "unseen", flag: run.limitedBy } : { status: "free" };
  }
}
