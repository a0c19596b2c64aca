import type { ValidationIssue } from "../schemas/index.js";
import { VoiceAgentError } from "../voiceagent-error.js";
import { redact } from "./stores.js";

/** Machine-readable error codes, in the spirit of got's `code`s. */
export type ApiErrorCode =
  | "E_VALIDATION"
  | "E_AUTH"
  | "E_NOT_FOUND"
  | "E_RATE_LIMIT"
  | "E_SERVER"
  | "E_HTTP"
  | "E_CONNECTION"
  | "E_TIMEOUT"
  | "E_SCHEMA"
  | "E_OUTCOME_UNKNOWN"
  | "E_INCOMPLETE_LIST"
  | "E_AMBIGUOUS"
  | "E_GENERATION"
  | "E_REDIRECT"
  | "E_BOOKKEEPING"
  | "E_CANCELLED";

/** What every ApiError carries besides its message. */
export interface ApiErrorDetails {
  code: ApiErrorCode;
  /** HTTP status; 0 when no response arrived. */
  status: number;
  method: string;
  /** Path and query of the request, e.g. `/v1/agents/?id=…`. */
  path: string;
  /** The server's X-Request-Id, when it sent one. */
  requestId?: string | undefined;
  /** How many attempts were made (1 when there was no retry). */
  attempts?: number | undefined;
  /** The server's own `{"detail": "..."}` text, when it sent one. */
  detail?: string | undefined;
  /**
   * Whether the service may have carried the request out: false when it cannot have (a 4xx, a
   * 429, a refused connection, any read), true when it may have or did (a 5xx, a reset or timeout
   * after the request was sent, an unreadable 2xx).
   */
  mayHaveActed?: boolean | undefined;
  /** What happened, in one clause, without advice (the message adds what to do). */
  summary?: string | undefined;
  /** A redacted summary of the underlying failure; never a got error (it holds the headers). */
  cause?: Error | undefined;
}

// Every registered secret (the token, secret inputs) is redacted by the host the error is made in
// (client/stores.ts): its message, path, detail and stack never hold one.
export { redact, registerSecret } from "./stores.js";

/**
 * The one error the client throws. Its message says what failed and what to do; it is redacted
 * when built, so message, stack, JSON and inspect output never hold the token.
 */
export class ApiError extends VoiceAgentError {
  override name = "ApiError";
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly requestId: string | undefined;
  readonly attempts: number;
  /** The server's `detail` text (redacted), when its error body had one. */
  readonly detail: string | undefined;
  /** Whether the service may have carried the request out (see ApiErrorDetails). */
  readonly mayHaveActed: boolean;
  /** What happened, without advice: callers that add their own advice use this, not `message`. */
  readonly summary: string;

  constructor(message: string, details: ApiErrorDetails) {
    const cause = details.cause ? sanitizedCause(details.cause) : undefined;
    super(redact(message), cause ? { cause } : undefined);
    this.code = details.code;
    this.status = details.status;
    this.method = details.method;
    this.path = redact(details.path);
    this.requestId = details.requestId;
    this.attempts = details.attempts ?? 1;
    this.detail = details.detail === undefined ? undefined : redact(details.detail);
    this.mayHaveActed = details.mayHaveActed ?? false;
    this.summary = redact(details.summary ?? message);
    if (this.stack) this.stack = redact(this.stack);
  }

  /** A plain, redacted view for logs and JSON. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      status: this.status,
      method: this.method,
      path: this.path,
      requestId: this.requestId,
      attempts: this.attempts,
      detail: this.detail,
      mayHaveActed: this.mayHaveActed,
      message: this.message,
    };
  }
}

function sanitizedCause(cause: Error): Error {
  const e = new Error(redact(cause.message));
  e.name = cause.name;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === "string") Object.assign(e, { code });
  e.stack = `${e.name}: ${e.message}`;
  return e;
}

/** 422: the server rejected fields; `issues` name them by path (e.g. `body.voice`). */
export class ApiValidationError extends ApiError {
  override name = "ApiValidationError";
  readonly issues: ValidationIssue[];
  constructor(message: string, details: Omit<ApiErrorDetails, "code">, issues: ValidationIssue[]) {
    super(message, { ...details, code: "E_VALIDATION" });
    this.issues = issues.map((i) => ({ ...i, msg: redact(i.msg) }));
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}

/** 401/403: the token was missing or not accepted. */
export class ApiAuthError extends ApiError {
  override name = "ApiAuthError";
  constructor(message: string, details: Omit<ApiErrorDetails, "code">) {
    super(message, { ...details, code: "E_AUTH" });
  }
}

/** 404: no such object for this token (or no such route). */
export class ApiNotFoundError extends ApiError {
  override name = "ApiNotFoundError";
  constructor(message: string, details: Omit<ApiErrorDetails, "code">) {
    super(message, { ...details, code: "E_NOT_FOUND" });
  }
}

/** 429 after the retries allowed: `retryAfterMs` is the server's last Retry-After, if any. */
export class ApiRateLimitError extends ApiError {
  override name = "ApiRateLimitError";
  readonly retryAfterMs: number | undefined;
  constructor(message: string, details: Omit<ApiErrorDetails, "code">, retryAfterMs: number | undefined) {
    super(message, { ...details, code: "E_RATE_LIMIT" });
    this.retryAfterMs = retryAfterMs;
  }
}

/** No response: refused, reset, DNS, or timed out (`code` E_TIMEOUT). */
export class ApiConnectionError extends ApiError {
  override name = "ApiConnectionError";
  constructor(message: string, details: Omit<ApiErrorDetails, "code">, timeout: boolean) {
    super(message, { ...details, code: timeout ? "E_TIMEOUT" : "E_CONNECTION" });
  }
}

/**
 * A 2xx whose body is not JSON or does not match the endpoint's schema. `receivedId` is the body's
 * `id` when it had a UUID one: after a create, the object exists even though its answer was bad.
 */
export class ApiSchemaError extends ApiError {
  override name = "ApiSchemaError";
  readonly receivedId: string | undefined;
  constructor(message: string, details: Omit<ApiErrorDetails, "code">, receivedId?: string) {
    super(message, { ...details, code: "E_SCHEMA" });
    this.receivedId = receivedId;
  }
}

/**
 * A create whose outcome could not be settled: it may have made the object (or placed the call),
 * and checking through the list endpoint was impossible or inconclusive. `mayHaveActed` says
 * whether anything may exist; the message says what to check.
 */
export class ApiOutcomeUnknownError extends ApiError {
  override name = "ApiOutcomeUnknownError";
  constructor(
    message: string,
    details: Omit<ApiErrorDetails, "code">,
    /**
     * Set when a create may have made an object that nothing showed (createOnce): what a later
     * complete listing needs to settle it, the ids its collection held before the create (none
     * when no snapshot was taken). The provider keeps the create unsettled in the state with it.
     */
    readonly unsettled?: UnsettledCreate,
  ) {
    super(message, { ...details, code: "E_OUTCOME_UNKNOWN" });
  }
}

/** What a create whose outcome is unknown leaves for a later listing to settle it with. */
export interface UnsettledCreate {
  /** The ids the collection held before the create: none of them can be its object. Undefined: not known. */
  before: readonly string[] | undefined;
}

/**
 * A list route whose listing was not complete (client/listing.ts): an item its schema could not
 * read, or pages that stopped short. What it holds cannot show an object absent. A read: the
 * service did nothing.
 */
export class ApiIncompleteListingError extends ApiError {
  override name = "ApiIncompleteListingError";
  constructor(method: string, path: string, gap: string) {
    const summary = `${method} ${path}: the list could not be read whole: ${gap}`;
    super(`${summary}. Nothing was changed; what it holds cannot show that an object is absent.`, {
      code: "E_INCOMPLETE_LIST",
      status: 200,
      method,
      path,
      mayHaveActed: false,
      summary,
    });
  }
}

/**
 * A create whose outcome was unknown, and the list shows more than one new object matching
 * exactly what was sent: we never guess between them. `candidates` are their ids.
 */
export class ApiAmbiguousCreateError extends ApiError {
  override name = "ApiAmbiguousCreateError";
  readonly candidates: string[];
  constructor(message: string, details: Omit<ApiErrorDetails, "code">, candidates: string[]) {
    super(message, { ...details, code: "E_AMBIGUOUS", mayHaveActed: true });
    this.candidates = candidates;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), candidates: this.candidates };
  }
}

/**
 * A create whose bookkeeping failed: the record of creates that the provider processes of one
 * deployment share (a lock not taken, a wait past the operation's deadline, a folder removed).
 * `madeId`: the object the service had already made and answered with, when it had: it exists,
 * and the caller keeps it by that id rather than report a failure. `mayHaveActed`: whether the
 * create had been sent.
 */
export class ApiBookkeepingError extends ApiError {
  override name = "ApiBookkeepingError";
  readonly madeId: string | undefined;
  constructor(message: string, details: Omit<ApiErrorDetails, "code">, madeId?: string) {
    super(message, { ...details, code: "E_BOOKKEEPING", mayHaveActed: madeId !== undefined || details.mayHaveActed });
    this.madeId = madeId;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), madeId: this.madeId };
  }
}
