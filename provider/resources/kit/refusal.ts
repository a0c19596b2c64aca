// The provider's own refusals: what it declines to do before (or instead of) sending anything,
// each with a code that callers and tests tell apart without reading the text. The service's
// failures are the client's ApiError and its codes. The program side loads this, so it imports
// nothing but the root of the errors, which imports nothing either.

import { VoiceAgentError } from "../../voiceagent-error.js";

/** What was refused. */
export type RefusalCode =
  /** voiceagent:token set as plain config: it would be stored unencrypted. */
  | "E_PLAIN_TOKEN"
  /** The provider's settings are missing or malformed. */
  | "E_SETTINGS"
  /** A resource type this release does not serve (a newer SDK than the plugin). */
  | "E_UNKNOWN_KIND"
  /** An import of a kind this service cannot read back. */
  | "E_NOT_IMPORTABLE"
  /** The object is gone from the service, so nothing is sent for it. */
  | "E_GONE"
  /**
   * An object known by its id only that nothing proves present or absent (client/listing.ts): it
   * stays in the state as recorded, and nothing is sent for it.
   */
  | "E_UNSEEN"
  /**
   * A create whose outcome is unknown, recorded under a provisional id (kit/unsettled.ts): nothing
   * is sent for it until a complete listing settles it (`pulumi refresh`).
   */
  | "E_UNSETTLED";

/** A refusal: its message says what was refused, that nothing was sent, and what to do. */
export class Refusal extends VoiceAgentError {
  override name = "Refusal";
  /** Nothing was sent, so the service cannot have acted (the same field as the service's failures). */
  readonly mayHaveActed = false;
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
  }
}
