import got, {
  AbortError,
  HTTPError,
  RequestError,
  TimeoutError,
  type Method,
  type RetryOptions as GotRetryOptions,
} from "got";
import type { z } from "zod";
import {
  endpoints,
  MessageErrorBodySchema,
  ValidationErrorBodySchema,
  type BodyOf,
  type EndpointDef,
  type EndpointName,
  type QueryOf,
  type ResponseOf,
  UuidSchema,
} from "../schemas/index.js";
import {
  ApiAuthError,
  ApiConnectionError,
  ApiError,
  ApiNotFoundError,
  ApiRateLimitError,
  ApiSchemaError,
  ApiValidationError,
  type ApiErrorDetails,
} from "./errors.js";
import type { ClientOptions, RequestLogEvent } from "./options.js";
import { deadlineOf } from "./budget.js";
import { PacedTime } from "./paced-time.js";
import type { Pacer } from "./pace.js";
import { currentScope, currentStores } from "./stores.js";
import { Throttle } from "./throttle.js";

/** What a call to one endpoint may carry. */
export interface SendInput<N extends EndpointName> {
  query?: QueryOf<N>;
  body?: BodyOf<N>;
  /** Epoch ms after which no further retry starts (an operation's budget); default: the budget in scope (budget.ts), else now + budgetMs. */
  deadline?: number;
}

/** Sends one named endpoint and returns its parsed response. */
export type Send = <N extends EndpointName>(name: N, input?: SendInput<N>) => Promise<ResponseOf<N>>;

/** What a call to a route outside `endpoints` may carry (collections.ts: the current API's own routes). */
export interface RouteInput<E extends EndpointDef> {
  query?: E extends { query: infer Q extends z.ZodType } ? z.input<Q> : InputOf<E, "query">;
  body?: E extends { body: infer B extends z.ZodType }
    ? z.input<B> | (E extends { current: infer C extends z.ZodType } ? z.input<C> : never)
    : InputOf<E, "body">;
  deadline?: number | undefined;
}

/**
 * The input of an optional schema of a route typed only as an EndpointDef (a route of the
 * collection table read generically, whose callers' signatures type what they pass): any input
 * such a schema takes; undefined where the route has none.
 */
type InputOf<E, K extends "query" | "body"> = E extends { [P in K]?: infer S }
  ? S extends z.ZodType
    ? z.input<S>
    : undefined
  : undefined;

/**
 * Sends a route given by its definition (the wire layer's `collections`/`currentOnlyRoutes`, or an
 * endpoint read with another schema), with the same limiter, retries and errors as `Send`.
 */
export type SendRoute = <E extends EndpointDef>(
  name: string,
  route: E,
  input?: RouteInput<E>,
) => Promise<z.output<E["response"]>>;

/** The transport of one client: its sender and the limiter every request shares. */
export interface Transport {
  send: Send;
  sendRoute: SendRoute;
  throttle: Throttle;
  log: (event: RequestLogEvent) => void;
}

const NETWORK_ERROR_CODES = [
  "ETIMEDOUT",
  "ECONNRESET",
  "EADDRINUSE",
  "ECONNREFUSED",
  "EPIPE",
  "ENOTFOUND",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "EAI_AGAIN",
];
/** Failures that happen before a request reaches the service: it cannot have acted. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "EADDRINUSE",
]);
const NOT_SENT_TIMEOUTS: ReadonlySet<string> = new Set(["lookup", "connect", "secureConnect"]);

/** Whether a failed request reached the service at all (a refused connection or DNS failure did not). */
function wasSent(error: unknown): boolean {
  if (error instanceof HTTPError) return true;
  if (error instanceof TimeoutError) return !NOT_SENT_TIMEOUTS.has(error.event);
  if (error instanceof RequestError) return !NOT_SENT_CODES.has(error.code);
  return true;
}

/**
 * Whether the service may have carried out a request that failed this way. Reads never act. A
 * write acted for none of: a 4xx (refused; 429 means not processed), or a failure to connect.
 */
export function mayHaveActed(method: string, error: unknown): boolean {
  if (method === "GET" || !wasSent(error)) return false;
  return error instanceof HTTPError ? error.response.statusCode >= 500 : true;
}

/** Phone numbers in a query may be secrets: messages and logs show the route, not the number. */
function displayPath(path: string): string {
  return path.replace(/([?&]phone_number=)[^&]*/g, "$1…");
}

/** Builds the transport shared by all calls of one client: one limiter, one retry policy. */
export function createTransport(
  baseUrl: string,
  token: string,
  options: ClientOptions,
  observe: (json: unknown) => void = () => {},
): Transport {
  // The host this client is made in (client/stores.ts) holds its token's redaction and its pacer;
  // every request runs in it, so its errors are redacted by it wherever they are awaited.
  const stores = currentStores();
  stores.redaction.add(token);
  const base = baseUrl.replace(/\/+$/, "");
  const throttle = new Throttle({ concurrency: options.concurrency, now: options.now });
  const log = (event: RequestLogEvent) => options.onRequest?.(event);
  // Shared by every client of this token in the host: the service limits the account.
  const pacer = options.pace ? stores.pacers.for(base, token) : undefined;
  // The host's cancel (the engine's Cancel): checked before each attempt is sent, and aborting those in flight.
  const cancelled = stores.cancelled;

  /** One request to route `ep`, run in this client's host; its answer parsed by the route's response schema (typed by the two senders below). */
  const dispatch = (name: string, ep: EndpointDef, input: { query?: unknown; body?: unknown; deadline?: number }) =>
    stores.run(() => dispatched(name, ep, input));
  const dispatched = (name: string, ep: EndpointDef, input: { query?: unknown; body?: unknown; deadline?: number }) => {
    // The wait for a slot is the limit's queue when a limit is known as the slot comes (PacedTime).
    const slot = pacer ? currentScope()?.paced : undefined;
    slot?.start(options.now());
    return throttle.run(async (): Promise<unknown> => {
      slot?.end(options.now(), pacer?.perSecond !== undefined);
      const query = (input.query ?? undefined) as Record<string, string | number> | undefined;
      const search = query
        ? `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`
        : "";
      const shown = displayPath(`${ep.path}${search}`);
      const started = options.now();
      const deadline = input.deadline ?? deadlineOf(options).at;
      let attempt = 1;
      // Whether an earlier attempt may have been carried out: the request as a whole may have acted
      // when any attempt may have, whatever the last one answered (a cancel whose first attempt
      // acted and lost its reply, and whose retries were throttled, was still carried out).
      let earlierMayHaveActed = false;
      // When the pacer gave the latest attempt its turn: a 429 to it is told with it (client/pace.ts).
      let turnAt: number | undefined;
      // The attempts answered 429 (never carried out: not counted against `retry.limit`), and the
      // time the operation's requests waited for turns (not charged to the deadline, budget.ts).
      const patience = { limited: 0, paced: currentScope()?.paced ?? new PacedTime() };
      const turn = async () => {
        if (!pacer) return;
        patience.paced.start(options.now());
        try {
          turnAt = await pacer.take();
        } finally {
          patience.paced.end(options.now());
        }
      };
      const headers = {
        authorization: `Bearer ${token}`,
        accept: "application/json",
        "user-agent": options.userAgent,
      };
      const logHeaders = { ...headers, authorization: "Bearer [REDACTED]" };
      const note = (event: RequestLogEvent["event"], status: number, requestId: string | undefined, delayMs?: number) =>
        log({
          event,
          method: ep.method,
          path: shown,
          status,
          attempt,
          durationMs: options.now() - started,
          requestId,
          headers: logHeaders,
          ...(delayMs === undefined ? {} : { delayMs }),
        });
      const details = (status: number, requestId?: string, cause?: Error): ApiErrorDetails => ({
        code: "E_HTTP",
        status,
        method: ep.method,
        path: shown,
        requestId,
        attempts: attempt,
        cause,
      });

      /** Throws, sending nothing, once the deployment is cancelled: checked after every wait for a turn. */
      const notCancelled = () => {
        if (cancelled.aborted) throw cancelledError(details(0), false);
      };
      try {
        notCancelled();
        await turn();
        notCancelled();
        const response = await got(`${base}${ep.path}${search}`, {
          method: ep.method as Method,
          headers,
          ...(input.body !== undefined ? { json: input.body } : {}),
          responseType: "text",
          throwHttpErrors: true,
          followRedirect: false,
          signal: cancelled,
          timeout: { request: options.timeoutMs },
          // The retry is logged when it is decided, with its wait, not after the wait has passed.
          retry: retryFor(
            ep.method,
            ep.retry,
            options,
            throttle,
            pacer,
            () => turnAt,
            deadline,
            patience,
            cancelled,
            (error, delayMs) =>
              note("retry", error.response?.statusCode ?? 0, header(error.response?.headers["x-request-id"]), delayMs),
          ),
          hooks: {
            beforeRetry: [
              async (error) => {
                if (mayHaveActed(ep.method, error)) earlierMayHaveActed = true;
                attempt += 1;
                // A retry is a request like any other: it waits for its turn under the learned limit.
                await turn();
                notCancelled();
              },
            ],
          },
        });
        throttle.onSuccess();
        pacer?.onAnswered();
        const requestId = header(response.headers["x-request-id"]);
        note("response", response.statusCode, requestId);
        if (response.statusCode >= 300 && response.statusCode < 400)
          throw redirected(details(response.statusCode, requestId), header(response.headers.location));
        const d = { ...details(response.statusCode, requestId), mayHaveActed: ep.method !== "GET" };
        if (ep.acknowledges) return acknowledged(response.body, observe);
        return parseBody(ep.response, response.body, name, d, observe);
      } catch (error) {
        const translated = earlierMayHaveActed
          ? actedBefore(translate(error, base, details))
          : translate(error, base, details);
        note("error", translated.status, translated.requestId);
        throw translated;
      }
    });
  };

  // The route's schema parsed the answer: its output type is the route's response type.
  const send: Send = <N extends EndpointName>(name: N, input: SendInput<N> = {}) =>
    dispatch(name, endpoints[name], input) as Promise<ResponseOf<N>>;
  const sendRoute: SendRoute = <E extends EndpointDef>(name: string, ep: E, input: RouteInput<E> = {}) =>
    dispatch(name, ep, input) as Promise<z.output<E["response"]>>;
  return { send, sendRoute, throttle, log };
}

function retryFor(
  method: string,
  policy: "safe" | "never",
  options: ClientOptions,
  throttle: Throttle,
  pacer: Pacer | undefined,
  turnAt: () => number | undefined,
  deadline: number,
  patience: { limited: number; paced: PacedTime },
  cancelled: AbortSignal,
  onScheduled: (error: RequestError, delayMs: number) => void,
): Partial<GotRetryOptions> {
  const r = options.retry;
  return {
    // Counted here (`calculateDelay`), not by got: a 429 is not an attempt that counts.
    limit: Number.MAX_SAFE_INTEGER,
    methods: ["GET", "POST"],
    statusCodes: r.statusCodes,
    errorCodes: NETWORK_ERROR_CODES,
    maxRetryAfter: r.maxRetryAfterMs,
    calculateDelay: ({ attemptCount, retryAfter, computedValue, error }) => {
      const limited = error instanceof HTTPError && error.response.statusCode === 429;
      if (limited) {
        patience.limited += 1;
        pacer?.onRateLimited(turnAt());
        // A pacer that knows the limit slows the whole token already; halving what may be in flight
        // as well would hold the client under it (each throttled request keeps its slot while it waits).
        if (pacer?.perSecond === undefined) throttle.onRateLimited(retryAfter);
      }
      if (computedValue === 0 || cancelled.aborted) return 0;
      // A 429 was not carried out, and the service says when to come back: a patient client comes
      // back until the operation's deadline, however many times that takes. Other failures count.
      const counted = attemptCount - patience.limited;
      if (!limited && counted > r.limit) return 0;
      if (!wasSent(error) && counted > r.unreachableLimit) return 0;
      // A create that may have reached the service is never sent again from here: the caller
      // reconciles first (see reconcile.ts). 429 and refused connections mean nothing was done.
      if (policy === "never" && mayHaveActed(method, error)) return 0;
      const exp = Math.min(r.maxDelayMs, r.baseDelayMs * 2 ** (attemptCount - 1));
      const delay =
        retryAfter !== undefined ? computedValue : Math.max(1, Math.round(exp / 2 + Math.random() * (exp / 2)));
      // The operation's budget bounds the total time spent retrying, not waiting for turns while the
      // queue moves (the service answers the token's requests); a service that answers nothing but
      // 429 is refusing, and then the wait counts: the request fails once the budget is spent.
      const now = options.now();
      const credit = pacer?.answeredWithin(r.budgetMs) ? patience.paced.ms(now) : 0;
      if (now + delay > deadline + credit) return 0;
      onScheduled(error, delay);
      return delay;
    },
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A 3xx is never followed (a redirected POST would not be carried out as sent, and the token would
 * travel to wherever it points): it is an error naming the route and where it points.
 */
function redirected(details: ApiErrorDetails, location: string | undefined): ApiError {
  const where = `${details.method} ${details.path}`;
  const to = location ? displayPath(location) : "(no Location)";
  const summary = `${where} answered ${details.status}, a redirect to ${to}, which the provider does not follow`;
  return new ApiError(
    `${summary}. The service did not act on it. Check voiceagent:baseUrl (no trailing path), or report the route: ` +
      `the provider calls the routes the service's SDKs call.`,
    { ...details, code: "E_REDIRECT", summary, mayHaveActed: false },
  );
}

/** The body of an irreversible act's 2xx, if it is JSON; undefined otherwise (the act was done). */
function acknowledged(text: string, observe: (json: unknown) => void): unknown {
  const json = safeJson(text);
  if (json !== undefined) observe(json);
  return json;
}

function parseBody(
  schema: z.ZodType,
  text: string,
  name: string,
  details: ApiErrorDetails,
  observe: (json: unknown) => void,
): unknown {
  const where = `${details.method} ${details.path}`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const summary = `${where} (${name}) answered ${details.status} with a body that is not JSON`;
    // No Pulumi advice here: the client is usable without Pulumi, and its callers say which setting holds the URL.
    throw new ApiSchemaError(`${summary}: is the base URL the service's address?`, { ...details, summary });
  }
  observe(json);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
      .join("; ");
    const id = typeof json === "object" && json !== null && "id" in json ? json.id : undefined;
    const summary = `${where} (${name}) answered ${details.status} with a body that does not match the expected shape: ${fields}`;
    throw new ApiSchemaError(
      summary,
      { ...details, summary },
      typeof id === "string" && UuidSchema.safeParse(id).success ? id : undefined,
    );
  }
  return parsed.data;
}

/**
 * The failure of a request one of whose earlier attempts may have been carried out: it may have
 * acted, whatever its last attempt answered, and its summary says so (the callers' advice reads
 * `mayHaveActed`, and a 429 or a 422 alone would otherwise read as "nothing was done").
 */
function actedBefore(err: ApiError): ApiError {
  if (err.mayHaveActed) return err;
  const summary = `${err.summary}; an earlier attempt may have been carried out (its answer was lost)`;
  const d = {
    status: err.status,
    method: err.method,
    path: err.path,
    requestId: err.requestId,
    attempts: err.attempts,
  };
  const more = { detail: err.detail, summary, mayHaveActed: true };
  const message = `${summary}. The service may have carried it out.`;
  if (err instanceof ApiRateLimitError) return new ApiRateLimitError(message, { ...d, ...more }, err.retryAfterMs);
  if (err instanceof ApiValidationError) return new ApiValidationError(message, { ...d, ...more }, err.issues);
  if (err instanceof ApiAuthError) return new ApiAuthError(message, { ...d, ...more });
  if (err instanceof ApiNotFoundError) return new ApiNotFoundError(message, { ...d, ...more });
  if (err instanceof ApiConnectionError)
    return new ApiConnectionError(message, { ...d, ...more }, err.code === "E_TIMEOUT");
  return new ApiError(message, { ...d, ...more, code: err.code });
}

/**
 * A request the deployment's cancel stopped: before it was sent (`sent` false: nothing was done),
 * or in flight, when a write may have been carried out already, as with a lost reply.
 */
function cancelledError(details: ApiErrorDetails, sent: boolean): ApiError {
  const where = `${details.method} ${details.path}`;
  const acted = sent && details.method !== "GET";
  const summary = sent
    ? `${where} was aborted in flight: the deployment was cancelled`
    : `${where} was not sent: the deployment was cancelled`;
  const next = acted
    ? " The request was sent, so the service may have carried it out."
    : " The service did not act on it.";
  return new ApiError(`${summary}.${next}`, { ...details, code: "E_CANCELLED", summary, mayHaveActed: acted });
}

function translate(
  error: unknown,
  base: string,
  details: (status: number, requestId?: string, cause?: Error) => ApiErrorDetails,
): ApiError {
  if (error instanceof ApiError) return error;
  // Aborted by the host's cancel: counted as sent (got does not say whether the connection had opened).
  if (error instanceof AbortError) return cancelledError(details(0), true);
  if (error instanceof HTTPError) {
    const res = error.response;
    const status = res.statusCode;
    const requestId = header(res.headers["x-request-id"]);
    const body = typeof res.body === "string" ? safeJson(res.body) : undefined;
    const detail = MessageErrorBodySchema.safeParse(body);
    const d0 = details(status, requestId);
    const d = {
      ...d0,
      detail: detail.success ? detail.data.detail : undefined,
      mayHaveActed: mayHaveActed(d0.method, error),
    };
    const where = `${d.method} ${d.path}`;
    const tries = d.attempts && d.attempts > 1 ? ` after ${d.attempts} attempts` : "";
    const text = detail.success ? `: ${detail.data.detail}` : "";
    if (status === 422 || status === 400) {
      const v = ValidationErrorBodySchema.safeParse(body);
      const issues = v.success ? v.data.detail : [];
      const fields = issues.map((i) => `${i.loc.join(".")}: ${i.msg}`).join("; ");
      const summary = `${where} was rejected (${status}): ${fields || (detail.success ? detail.data.detail : "invalid request")}`;
      return new ApiValidationError(summary, { ...d, summary }, issues);
    }
    if (status === 401 || status === 403) {
      const summary = `${where} was refused (${status})${text}`;
      return new ApiAuthError(`${summary}. Check the token the client was given.`, { ...d, summary });
    }
    if (status === 404) return new ApiNotFoundError(`${where}: not found (404)${text}`, d);
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(header(res.headers["retry-after"]));
      const wait =
        retryAfterMs !== undefined ? ` The server asks to retry after ${Math.ceil(retryAfterMs / 1000)}s.` : "";
      const summary = `${where} was rate limited (429)${tries}`;
      return new ApiRateLimitError(`${summary}.${wait}`, { ...d, summary }, retryAfterMs);
    }
    if (status >= 500) {
      const summary = `${where} failed with a server error (${status})${tries}${text}`;
      const acted = d.mayHaveActed ? " The service may have carried it out before failing." : "";
      return new ApiError(`${summary}.${acted}`, { ...d, summary, code: "E_SERVER" });
    }
    return new ApiError(`${where} failed (${status})${text}`, d);
  }
  if (error instanceof RequestError) {
    const d0 = details(0, undefined, error);
    const d = { ...d0, mayHaveActed: mayHaveActed(d0.method, error) };
    const timeout = error.code === "ETIMEDOUT";
    const tries = d.attempts && d.attempts > 1 ? ` after ${d.attempts} attempts` : "";
    const code = error.code ?? error.message;
    const where = `${d.method} ${d.path}`;
    let summary: string;
    if (!wasSent(error)) summary = `${where}: could not reach ${base} (${code})${tries}`;
    else if (timeout) summary = `${where}: no response from ${base} in time (${code})${tries}`;
    else summary = `${where}: the connection to ${base} broke before an answer (${code})${tries}`;
    const next = !wasSent(error)
      ? ` Is the service running, and is ${base} its address?`
      : d.mayHaveActed
        ? " The request was sent, so the service may have carried it out."
        : "";
    return new ApiConnectionError(`${summary}.${next}`, { ...d, summary }, timeout);
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return new ApiConnectionError(
    `request failed: ${e.message}`,
    { ...details(0, undefined, e), mayHaveActed: true },
    false,
  );
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); invalid is ignored. */
function parseRetryAfter(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
