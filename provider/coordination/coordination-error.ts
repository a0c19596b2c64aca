// The failures of the provider processes' shared bookkeeping on this machine (the deployment's
// folder, the account's record of creates): neither sends anything to the service, so none may
// have acted; a caller that sent a request around one says so itself (client/reconcile.ts wraps a
// failed record of creates into an ApiBookkeepingError that says what the service did).
import { VoiceAgentError } from "../voiceagent-error.js";

/** What failed: the shared folder could not be made safely, or another process held the record past the deadline. */
export type CoordinationCode = "E_SHARED_FOLDER" | "E_TIMEOUT";

/** A failure of the bookkeeping the provider processes of one machine share; nothing was sent. */
export class CoordinationError extends VoiceAgentError {
  override readonly name = "CoordinationError";
  /** The bookkeeping sends nothing to the service. */
  readonly mayHaveActed = false;
  constructor(
    readonly code: CoordinationCode,
    message: string,
  ) {
    super(message);
  }
}
