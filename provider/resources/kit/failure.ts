// What a check answers when an input is wrong, in a module of its own with no zod: the root entry
// refuses bad config and a number declared twice before any resource registers, and promises not
// to load zod until a request is made (the schema checks themselves are in check.ts).

/** What every refusal before a request adds: nothing reached the service, so it did not act. */
export const NOTHING_SENT = "nothing was sent to the service";

/**
 * One input problem, as Pulumi shows it at preview. `property` is always "": given a property,
 * the engine prints that property's value beside the reason (issueCheckFailures in
 * pkg/resource/deploy/step_generator.go: `property %v value %v has a problem`), secret or not in
 * pulumi v3.259.0, a secret redacted from v3.260.0 on (shown with --show-secrets). The
 * peer range admits the older CLIs, so the reason names the field, and no value ever reaches the output.
 */
export interface CheckFailure {
  property: "";
  reason: string;
}

/**
 * A failure whose reason names the field (never `property`: see CheckFailure) and says that
 * nothing was sent: every check runs before any request.
 */
export function inputFailure(reason: string): CheckFailure {
  return { property: "", reason: `${reason}; ${NOTHING_SENT}` };
}
