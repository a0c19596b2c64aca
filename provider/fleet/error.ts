// The error of a fleet that fails its check, apart from the check itself: the check loads zod,
// which a program only pays for when it uses a Fleet (./load-check.ts).

import { VoiceAgentError } from "../voiceagent-error.js";

/**
 * A stack file's fleet that cannot be deployed. Shown by Pulumi as its message alone (no stack
 * trace): `__pulumiRunError` is how @pulumi/pulumi recognises a RunError.
 */
export class FleetConfigError extends VoiceAgentError {
  override readonly name = "FleetConfigError";
  readonly code = "E_FLEET_CONFIG";
  readonly mayHaveActed = false;
  readonly __pulumiRunError = true;
  constructor(
    readonly problems: string[],
    source: string,
    file = "Pulumi.<stack>.yaml",
  ) {
    super(
      `${source}: ${problems.length === 1 ? "1 problem" : `${problems.length} problems`} in the stack's ${source} value; ` +
        `nothing was sent to the service. Correct ${problems.length === 1 ? "it" : "them"} in ${file} ` +
        `(or with \`pulumi config set --path\`) and run \`pulumi preview\` again:\n${problems.map((p) => `  ${p}`).join("\n")}`,
    );
  }
}
