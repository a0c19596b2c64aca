import got, { HTTPError, RequestError, type Method, type RetryOptions as GotRetryOptions } from "got";
import pLimit from "p-limit";
import type { z } from "zod";
import {
  endpoints,
  MessageErrorBodySchema,
  ValidationErrorBodySchema,
  type BodyOf,
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
  registerSecret,
  type ApiErrorDetails,
} from "./errors.js";
import type { ClientOptions, RequestLogEvent } from "./options.js";

/** What a call to one endpoint may carry. */
export interface SendInput<N extends EndpointName> {
  query?: QueryOf<N>;
  body?: BodyOf<N>;
}

/** Sends one named endpoint and returns its parsed response. */
export type Send = <N extends EndpointName>(name: N, input?: SendInput<N>) => Promise<ResponseOf<N>>;

const NETWORK_ERROR_CODES = ["ETIMEDOUT", "ECONNRESET", "EADDRINUSE", "ECONNREFUSED", "EPIPE", "ENOTFOUND", "ENETUNREACH", "EAI_AGAIN"];

/** Builds the transport shared by all calls of one client: one concurrency cap, one retry policy. */
export function createTransport(baseUrl: string, token: string, options: ClientOptions): Send {
  registerSecret(token);
  const base = baseUrl.replace(/\/+$/, "");
  const limit = pLimit(options.concurrency);

  return <N extends EndpointName>(name: N, input: SendInput<N> = {}) =>
    limit(async () => {
      const ep = endpoints[name];
      const query = (input.query ?? undefined) as Record<string, string | number> | undefined;
      const search = query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}` : "";
      const path = `${ep.path}${search}`;
      const started = Date.now();
      let attempt = 1;
      const headers = {
        authorization: `Bearer ${token}`,
        accept: "application/json",
        "user-agent": options.userAgent,
      };
      const logHeaders = { ...headers, authorization: "Bearer [REDACTED]" };
      const log = (event: RequestLogEvent["event"], status: number, requestId: string | undefined) =>
        options.onRequest?.({ event, method: ep.method, path, status, attempt, durationMs: Date.now() - started, requestId, headers: logHeaders });
      const details = (status: number, requestId?: string, cause?: Error): ApiErrorDetails => ({
        code: "E_HTTP",
        status,
        method: ep.method,
        path,
        requestId,
        attempts: attempt,
        cause,
      });

      try {
        const response = await got(`${base}${path}`, {
          method: ep.method as Method,
          headers,
          ...(input.body !== undefined ? { json: input.body } : {}),
          responseType: "text",
          throwHttpErrors: true,
          followRedirect: false,
          timeout: { request: options.timeoutMs },
          retry: retryFor(ep.retry, options),
          hooks: {
            beforeRetry: [
              (error) => {
                log("retry", error.response?.statusCode ?? 0, header(error.response?.headers["x-request-id"]));
                attempt += 1;
              },
            ],
          },
        });
        const requestId = header(response.headers["x-request-id"]);
        log("response", response.statusCode, requestId);
        return parseBody(ep.response, response.body, name, details(response.statusCode, requestId)) as ResponseOf<N>;
      } catch (error) {
        const translated = translate(error, base, details);
        log("error", translated.status, translated.requestId);
        throw translated;
      }
    });
}

function retryFor(policy: "safe" | "never", options: ClientOptions): Partial<GotRetryOptions> {
  const r = options.retry;
  // A create that may have reached the server is never repeated; 429 means it was not processed.
  const safe = policy === "safe";
  return {
    limit: r.limit,
    methods: ["GET", "POST"],
    statusCodes: safe ? r.statusCodes : r.statusCodes.filter((s) => s === 429),
    errorCodes: safe ? NETWORK_ERROR_CODES : [],
    maxRetryAfter: r.maxRetryAfterMs,
    calculateDelay: ({ attemptCount, retryAfter, computedValue }) => {
      if (computedValue === 0) return 0;
      if (retryAfter !== undefined) return computedValue;
      const exp = Math.min(r.maxDelayMs, r.baseDelayMs * 2 ** (attemptCount - 1));
      return Math.max(1, Math.round(exp / 2 + Math.random() * (exp / 2)));
    },
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseBody(schema: z.ZodType, text: string, name: string, details: ApiErrorDetails): unknown {
  const where = `${details.method} ${details.path}`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiSchemaError(
      `${where} (${name}) answered ${details.status} with a body that is not JSON: is voiceagent:baseUrl the service's address?`,
      details,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
      .join("; ");
    const id = (json as { id?: unknown } | null)?.id;
    throw new ApiSchemaError(
      `${where} (${name}) answered ${details.status} with a body that does not match the expected shape: ${fields}`,
      details,
      typeof id === "string" && UuidSchema.safeParse(id).success ? id : undefined,
    );
  }
  return parsed.data;
}

function translate(
  error: unknown,
  base: string,
  details: (status: number, requestId?: string, cause?: Error) => ApiErrorDetails,
): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPError) {
    const res = error.response;
    const status = res.statusCode;
    const requestId = header(res.headers["x-request-id"]);
    const body = typeof res.body === "string" ? safeJson(res.body) : undefined;
    const detail = MessageErrorBodySchema.safeParse(body);
    const d = { ...details(status, requestId), detail: detail.success ? detail.data.detail : undefined };
    const where = `${d.method} ${d.path}`;
    const tries = d.attempts && d.attempts > 1 ? ` after ${d.attempts} attempts` : "";
    const text = detail.success ? `: ${detail.data.detail}` : "";
    if (status === 422 || status === 400) {
      const v = ValidationErrorBodySchema.safeParse(body);
      const issues = v.success ? v.data.detail : [];
      const fields = issues.map((i) => `${i.loc.join(".")}: ${i.msg}`).join("; ");
      return new ApiValidationError(
        `${where} was rejected (${status}): ${fields || (detail.success ? detail.data.detail : "invalid request")}`,
        d,
        issues,
      );
    }
    if (status === 401 || status === 403) {
      return new ApiAuthError(
        `${where} was refused (${status})${text}. Check the token (voiceagent:token or VOICEAGENT_TOKEN).`,
        d,
      );
    }
    if (status === 404) return new ApiNotFoundError(`${where}: not found (404)${text}`, d);
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(header(res.headers["retry-after"]));
      const wait = retryAfterMs !== undefined ? ` The server asks to retry after ${Math.ceil(retryAfterMs / 1000)}s.` : "";
      return new ApiRateLimitError(`${where} was rate limited (429)${tries}.${wait}`, d, retryAfterMs);
    }
    if (status >= 500) {
      return new ApiError(`${where} failed with a server error (${status})${tries}${text}. Try again later.`, {
        ...d,
        code: "E_SERVER",
      });
    }
    return new ApiError(`${where} failed (${status})${text}`, d);
  }
  if (error instanceof RequestError) {
    const d = details(0, undefined, error);
    const timeout = error.code === "ETIMEDOUT";
    const tries = d.attempts && d.attempts > 1 ? ` after ${d.attempts} attempts` : "";
    const msg = timeout
      ? `${d.method} ${d.path}: no response from ${base} in time (${error.code})${tries}.`
      : `${d.method} ${d.path}: could not reach ${base} (${error.code ?? error.message})${tries}. Is the service running, and is voiceagent:baseUrl right?`;
    return new ApiConnectionError(msg, d, timeout);
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return new ApiConnectionError(`request failed: ${e.message}`, details(0, undefined, e), false);
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
