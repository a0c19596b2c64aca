import { type CheckFailure, inputFailure } from "../resources/kit/failure.js";
import type { SharedDeployment } from "./deployment.js";

// Inputs that one resource only may hold in a program: a number bound by two PhoneNumbers would be
// bound twice, the last write winning, and every later `preview --refresh` would show changes that
// never converge. The program declares both, so preview can refuse it, naming both, before any
// request. Which inputs they are is said once, on the kind's field (`boundOnce`, kit/kind.ts): the
// runtime reads it from the kind, the program's process from generated/properties.ts.
//
// Per deployment: a plugin process serves one provider instance only (an explicit Provider, a
// component's, another version's default), so the holder is recorded in the deployment's shared
// folder too (coordination/deployment.ts), first come first held, and a second resource of another
// instance meets it there. The dynamic entry checks in the program's process (dynamic/base.ts),
// which serves the whole program.
//
// Kinds whose bound-once inputs have one name hold one thing on the service, whichever of them
// holds it: a PhoneNumber and a LinkedNumber of one number both set that number's inbound agent
// (numbers/update), so a program declaring both gets two resources overwriting each other's agent,
// as two PhoneNumbers would. One number is held by one resource of these kinds.

/** The name a URN ends with (`urn:pulumi:stack::project::type::name`). */
const nameOf = (who: string) => who.split("::").pop() ?? who;

/**
 * Who holds each bound-once value in one process (and its deployment): the only owner of that map
 * (the host holds one, provider/host.ts), `kind\0value` to the resource's name or URN.
 */
export class BoundOnce {
  private readonly holders = new Map<string, string>();

  /** `deployment`: the one the host joined, if any, where other processes' holders are recorded too. */
  constructor(private readonly deployment: () => SharedDeployment | undefined) {}

  /**
   * Records that `who` (a URN or a resource name) holds `value` as `kind`'s bound-once input
   * `field`, and says what is wrong when another resource already does, of this kind or of one whose
   * bound-once input has the same name. The value is never repeated (it may be a secret). A resource
   * checked again (a migration checks old and new inputs) is no conflict.
   */
  hold(kind: string, field: string, value: string, who: string): CheckFailure | undefined {
    return holdOnce((parts, holder) => this.holderOf(parts, holder), kind, field, value, who);
  }

  /** Who holds `parts`: `who` when nobody did before. */
  private holderOf(parts: string[], who: string): string {
    const key = parts.join("\0");
    const other = this.holders.get(key) ?? this.deployment()?.holdFirst("bound", who, ...parts) ?? who;
    if (other === who) this.holders.set(key, who);
    return other;
  }
}

/** {@link BoundOnce.hold}, given who holds what (`holderOf`). */
function holdOnce(
  holderOf: (parts: string[], who: string) => string,
  kind: string,
  field: string,
  value: string,
  who: string,
): CheckFailure | undefined {
  // Per kind first, under the mark earlier releases write too: a deployment may run one of them
  // (another version's default provider) beside this one.
  const other = holderOf([kind, value], who);
  if (other !== who) {
    return inputFailure(
      `${field} is also bound by ${kind} '${nameOf(other)}' in this program: one ${field} can be bound by one ${kind} only ` +
        `(the last write would win, and every later \`pulumi preview --refresh\` would show changes). Remove ` +
        `'${nameOf(who)}' or '${nameOf(other)}', or give one another ${field}`,
    );
  }
  // Across kinds: the holder is recorded with its kind, which the message names. The mark keeps the
  // name earlier releases wrote (the thing held, which is the input's name).
  const thing = field;
  const mine = `${kind}\n${who}`;
  const held = holderOf(["shared", thing, value], mine);
  if (held === mine) return undefined;
  const [otherKind = "", otherWho = ""] = held.split("\n");
  return inputFailure(
    `${field} of ${kind} '${nameOf(who)}' is also the ${thing} of ${otherKind} '${nameOf(otherWho)}' in this program: ` +
      `a ${thing} is bound by a PhoneNumber or linked by a LinkedNumber, never both (each sets its inbound agent: the last write ` +
      `would win, and every later \`pulumi preview --refresh\` would show changes). Remove '${nameOf(who)}' or '${nameOf(otherWho)}' ` +
      `(a linked number's LinkedNumber sets its agent itself: it needs no PhoneNumber), or give one another ${field}`,
  );
}
