/**
 * The phone numbers the program being deployed declares, by any of our number resources.
 *
 * Why: two resources can address one live number — a renamed resource (no `aliases`), two lines
 * that swap numbers, a line moved into a component. The engine then creates the new resource and
 * deletes the old one at the end of the deployment, and the old one's delete would undo what the
 * new one just did (unbind, or worse, cancel). A pending delete left by an interrupted run does the
 * same in a later deployment, where nothing in memory remembers the replacement.
 *
 * The engine checks every resource the program registers before it runs any delete (deletes of
 * resources no longer in the program, and pending deletes, come at the end; a delete-before-replace
 * comes after its own check). So a delete can ask: does the program still declare this number? If
 * it does, the live number belongs to that declaration, and the delete leaves it alone.
 *
 * One dynamic-provider process serves a whole deployment, so a module-level set is the right scope.
 */
const declared = new Map<string, number>();

/** Records that the program declares `number` (called from check, for each number resource). */
export function declareNumber(number: string): void {
  declared.set(number, (declared.get(number) ?? 0) + 1);
}

/** True when the program being deployed declares `number` in some resource. */
export function isDeclared(number: string): boolean {
  return (declared.get(number) ?? 0) > 0;
}
