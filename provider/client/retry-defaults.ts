/**
 * Retry policy. Reads and updates (idempotent) retry on these statuses and on network errors.
 * Creates are sent again only when the service cannot have acted (429, connection refused); any
 * other failure of a create is reconciled first (see `reconcile`).
 */
export interface RetryOptions {
  /** Retries after the first attempt of one request. */
  limit: number;
  /**
   * Retries when the service could not be reached at all (refused, DNS): usually a wrong URL or a
   * service that is down, where waiting long only delays the message.
   */
  unreachableLimit: number;
  /** Backoff before retry n is about `baseDelayMs * 2^(n-1)`, with jitter, at most `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is returned instead. */
  maxRetryAfterMs: number;
  /**
   * The most time one operation (a request with its retries, or a create with its reconciliation)
   * may spend waiting to retry; past it the last error is returned.
   */
  budgetMs: number;
  statusCodes: number[];
}

/**
 * The client's retry defaults, in a module of their own with no zod: the provider's settings
 * document the time budget from here (voiceagent:operationTimeout's default), and the root entry,
 * which promises not to load zod until a request is made, reads those docs. The policy's type is
 * declared here too, so this module imports nothing (options.ts, which loads zod, imports it).
 */
export const DEFAULT_RETRY: RetryOptions = {
  limit: 10,
  unreachableLimit: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  budgetMs: 120_000,
  statusCodes: [408, 429, 500, 502, 503, 504],
};
