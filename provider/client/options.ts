import { z } from "zod";

/** One request as the log hook sees it: the token is never included. */
export interface RequestLogEvent {
  event: "response" | "retry" | "error";
  method: string;
  path: string;
  status: number;
  attempt: number;
  durationMs: number;
  requestId?: string | undefined;
  /** Request headers with Authorization redacted. */
  headers: Record<string, string>;
}

/** Retry policy: reads and updates retry on these statuses and network errors; creates only on 429. */
export interface RetryOptions {
  /** Retries after the first attempt. */
  limit: number;
  /** Backoff before retry n is about `baseDelayMs * 2^(n-1)`, with jitter, at most `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is returned instead. */
  maxRetryAfterMs: number;
  statusCodes: number[];
}

/** Everything `createClient` accepts besides the base URL and token. */
export interface ClientOptions {
  /** Per-attempt timeout in milliseconds. */
  timeoutMs: number;
  /** Requests in flight at once, shared by all calls of one client. */
  concurrency: number;
  retry: RetryOptions;
  userAgent: string;
  /** Called for every response, retry and failure, with the token redacted. */
  onRequest?: ((event: RequestLogEvent) => void) | undefined;
}

/** The package version, for the user agent (read by the package's own name: the same from dist/ and from a test's sources). */
export const PACKAGE_VERSION: string = z.object({ version: z.string() }).parse(require("pulumi-voiceagent/package.json")).version;

/** The client's defaults, merged with what the caller passes. */
export const defaultClientOptions: ClientOptions = {
  timeoutMs: 15_000,
  concurrency: 8,
  retry: {
    limit: 4,
    baseDelayMs: 250,
    maxDelayMs: 5_000,
    maxRetryAfterMs: 30_000,
    statusCodes: [408, 429, 500, 502, 503, 504],
  },
  userAgent: `pulumi-voiceagent/${PACKAGE_VERSION} (node ${process.versions.node})`,
};

/** Options the caller may pass: any subset, with `retry` merged field by field. */
export type ClientOptionsInput = Partial<Omit<ClientOptions, "retry">> & { retry?: Partial<RetryOptions> };

/** Merges caller options over the defaults. */
export function mergeOptions(input: ClientOptionsInput = {}): ClientOptions {
  return {
    ...defaultClientOptions,
    ...stripUndefined(input),
    retry: { ...defaultClientOptions.retry, ...stripUndefined(input.retry ?? {}) },
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
