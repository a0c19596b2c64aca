import { ExplainedError } from "../resources/kit/errors.js";

/**
 * The phone numbers the program being deployed declares, per kind of number resource.
 *
 * Why: two resources of one kind can address one live number — a renamed resource (no
 * `aliases`), two lines that swap numbers, a line moved into a component. The engine then creates
 * the new resource and deletes the old one at the end of the deployment, and the old one's delete
 * would undo what the new one just did (unbind, or worse, cancel). A pending delete left by an
 * interrupted run does the same in a later deployment, where nothing in memory remembers the
 * replacement.
 *
 * The engine checks every resource the program registers before it runs any delete (deletes of
 * resources no longer in the program, and pending deletes, come at the end; a delete-before-replace
 * comes after its own check). So a delete can ask: does the program still declare this number in
 * a resource of the same kind? If it does, the live binding (or purchase) belongs to that
 * declaration, and the delete leaves it alone.
 *
 * Per kind, because a binding and a purchase of one number own different things: a purchase of N
 * never holds N's binding (deleting the binding must unbind it), and a binding of N never holds
 * its purchase (deleting the purchase cancels it, as its destroy says).
 *
 * The scope is the deployment, not the process: the engine runs a plugin process per provider
 * instance and one dynamic host for every dynamic resource, and a resource moved to another
 * instance (default → explicit Provider, into a component with its own provider, another version)
 * or between the entries is checked in one process and deleted in another. So every provider
 * process that joined its deployment (see `SharedDeployment`) records each declaration in the
 * shared folder too, before its check answers, and a delete looks there.
 */
export type NumberKind = string;

/** What a delete may do with a number (see `NumberClaims.of`); `flag` names what limits the run. */
export type Claim = { status: "declared" } | { status: "unseen"; flag: string } | { status: "free" };

/**
 * The refusal a delete gives when its number's holder (another resource declaring it) cannot be
 * known: nothing was sent, and the two ways on. `undo` is what the delete would have done ("unbind", "cancel").
 */
export function unseenHolder(kind: NumberKind, flag: string, undo: string): ExplainedError {
  return new ExplainedError(
    `nothing was sent: this run is limited by ${flag}, and the engine never shows the provider the resources it leaves out, ` +
      `so it cannot tell whether another ${kind} still declares this number (a rename or a move leaves two for a while). ` +
      `To ${undo} it, remove the resource from the program (if it is still there) and run \`pulumi up\` without ${flag}: ` +
      `it will ${undo} the number only if no other ${kind} declares it. ` +
      "To drop the resource from the stack and leave the number as it is, run `pulumi state delete <urn>`.",
    { code: "E_UNSEEN", mayHaveActed: false },
  );
}
