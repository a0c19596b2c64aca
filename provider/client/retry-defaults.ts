import type { RetryOptions } from "./options.js";

/**
 * The client's retry defaults, in a module of their own with no zod: the provider's settings
 * document the time budget from here (voiceagent:operationTimeout's default), and the root entry,
 * which promises not to load zod until a request is made, reads those docs.
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
