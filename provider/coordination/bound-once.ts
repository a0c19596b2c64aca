import type { Host } from "../host.js";
import { type CheckFailure, inputFailure } from "../resources/kit/failure.js";

/**
 * Inputs that one resource only may hold in a program: a number bound by two PhoneNumbers would be
 * bound twice, the last write winning, and every later `preview --refresh` would show changes that
 * never converge. The program declares both, so preview can refuse it, naming both, before any request.
 *
 * Per deployment: a plugin process serves one provider instance only (an explicit Provider, a
 * component's, another version's default), so the holder is recorded in the deployment's shared
 * folder too (coordination/deployment.ts), first come first held, and a second resource of another
 * instance meets it there. The dynamic entry checks in the program's process (dynamic/base.ts),
 * which serves the whole program.
 */
export const BOUND_ONCE: Readonly<Record<string, string>> = { PhoneNumber: "number", LinkedNumber: "number" };

/** The name a URN ends with (`urn:pulumi:stack::project::type::name`). */
const nameOf = (who: string) => who.split("::").pop() ?? who;

/**
 * Records in `host` that `who` (a URN or a resource name) holds `value` as `kind`'s bound-once input, and
 * says what is wrong when another resource already does. The value is never repeated (it may be a
 * secret). A resource checked again (a migration checks old and new inputs) is no conflict.
 */
export function holdOnce(host: Host, kind: string, value: string, who: string): CheckFailure | undefined {
  const field = BOUND_ONCE[kind];
  if (!field) return undefined;
  const key = `${kind}\0${value}`;
  // Who holds each value, per kind, in this host (and its deployment): the resource's name (or URN).
  const other = host.holders.get(key) ?? host.deployment?.holdFirst("bound", who, kind, value) ?? who;
  if (other === who) {
    host.holders.set(key, who);
    return undefined;
  }
  return inputFailure(
    `${field} is also bound by ${kind} '${nameOf(other)}' in this program: one ${field} can be bound by one ${kind} only ` +
      `(the last write would win, and every later \`pulumi preview --refresh\` would show changes). Remove ` +
      `'${nameOf(who)}' or '${nameOf(other)}', or give one another ${field}`,
  );
}
