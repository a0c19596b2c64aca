// The root of every error this package throws, in a module that imports nothing: the program side
// (the config guard, the version check, a Fleet's check) loads it without loading the client or zod.

/**
 * Every error of pulumi-voiceagent: the client's (`ApiError`), the provider's refusals, the kit's
 * worded failures, the plugin's, the CLI's, a Fleet's. A caller branches on `code` and
 * `mayHaveActed`, never on the message or the subclass. It keeps the name `Error` unless a subclass
 * names itself: texts users read today (the dynamic provider host prints `${err}`) stay the same.
 */
export abstract class VoiceAgentError extends Error {
  /** What failed, in a word a program or pipeline can branch on (E_AUTH, E_SETTINGS, E_COMMAND...). */
  abstract readonly code: string;
  /**
   * Whether the service may have carried the request out: false when nothing was sent or the
   * service cannot have acted, true when it may have (or did).
   */
  abstract readonly mayHaveActed: boolean;
}
