import { sharedDeployment } from "./deployment.js";
import { type CheckFailure, inputFailure } from "./failure.js";

/**
 * Inputs that one resource only may hold in a program: a number bound by two PhoneNumbers would be
 * bound twice, the last write winning, and every later `preview --refresh` would show changes that
 * never converge. The program declares both, so preview can refuse it, naming both, before any request.
 *
 * Per deployment: a plugin process serves one provider instance only (an explicit Provider, a
 * component's, another version's default), so the holder is recorded in the deployment's shared
 * folder too (kit/deployment.ts), first come first held, and a second resource of another
 * instance meets it there. The dynamic entry checks in the program's process (resources/base.ts),
 * which serves the whole program.
 */
export const BOUND_ONCE: Readonly<Record<string, string>> = { PhoneNumber: "number", LinkedNumber: "number" };

/** Who holds each value, per kind, in this deployment: the resource's name (or URN). */
const holders = new Map<string, string>();

/** The name a URN ends with (`urn:pulumi:stack::project::type::name`). */
const nameOf = (who: string) => who.split("::").pop() ?? who;

/**
 * Records that `who` (a URN or a resource name) holds `value` as `kind`'s bound-once input, and
 * says what is wrong when another resource already does. The value is never repeated (it may be a
 * secret). A resource checked again (a migration checks old and new inputs) is no conflict.
 */
export function holdOnce(kind: string, value: string, who: string): CheckFailure | undefined {
  const field = BOUND_ONCE[kind];
  if (!field) return undefined;
  const key = `${kind}\0${value}`;
  const other = holders.get(key) ?? sharedDeployment()?.holdFirst("bound", who, kind, value) ?? who;
  if (other === who) {
    holders.set(key, who);
    return undefined;
  }
  return inputFailure(
    `${field} is also bound by ${kind} '${nameOf(other)}' in this program: one ${field} can be bound by one ${kind} only ` +
      `(the last write would win, and every later \`pulumi preview --refresh\` would show changes). Remove '${nameOf(who)}' or '${nameOf(other)}', or give one another ${field}`,
  );
}

/** Forgets every holder (tests run several deployments in one process). */
export function resetHolders(): void {
  holders.clear();
}
