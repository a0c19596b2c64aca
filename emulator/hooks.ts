import type { FastifyReply, FastifyRequest } from "fastify";
import type { FaultAction } from "./fault-rule.js";
import type { FaultInjector } from "./faults.js";
import { pathOf, type Caller } from "./request-context.js";
import type { RateLimiter } from "./rate-limit.js";
import { countFault, countRateLimited, countRequest, type RequestStats } from "./stats.js";

const AUTH_EXEMPT = new Set(["/openapi.json", "/healthz"]);

/** What the request hook reaches. */
export interface RequestHookDeps {
  callers: Map<string, Caller>;
  stats: RequestStats;
  faults: FaultInjector;
  /** The per-token rate limit of /v1 requests, when one is set. */
  limiter?: RateLimiter | undefined;
}

/**
 * The onRequest hook of every route: X-Request-Id, the request count (every path but /admin), bearer auth, and the
 * before-work faults (they answer before routing reaches a handler, so nothing is committed).
 */
export function requestHook(deps: RequestHookDeps) {
  const { callers, stats, faults, limiter } = deps;
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    // Set first, so every answer carries it: errors, 401s and 404s included.
    reply.header("x-request-id", req.id);
    const path = pathOf(req.url);
    const service = path.startsWith("/v1");
    // Every request is counted, on any path (a client that asks a wrong path must not be
    // invisible to a "sends nothing" test); only the test's own /admin calls are not.
    req.routeKey = `${req.method} ${path}`;
    if (!path.startsWith("/admin/")) countRequest(stats, req.routeKey);
    if (AUTH_EXEMPT.has(path)) return undefined;
    const header = req.headers.authorization;
    if (header === undefined) return unauthorized(reply, "Not authenticated");
    const m = /^Bearer ([^\s]+)$/.exec(header);
    if (!m?.[1]) return unauthorized(reply, "Malformed Authorization header: expected 'Bearer <token>'");
    const caller = callers.get(m[1]);
    if (!caller) return unauthorized(reply, "Invalid token");
    req.caller = caller;

    if (service && limiter) {
      const retryAfter = limiter.take(m[1]);
      if (retryAfter !== undefined) {
        countRateLimited(stats, req.routeKey);
        return reply
          .code(429)
          .header("retry-after", String(retryAfter))
          .send({ detail: `Rate limit exceeded: retry after ${retryAfter}s` });
      }
    }
    if (!service || !faults.has("before")) return undefined;
    const action = faults.decide("before", req.method, path, req.headers.host);
    if (!action) return undefined;
    countFault(stats, "before", req.routeKey);
    return applyFault(reply, action, (ms) => faults.delay(ms, req.method, path, goneSignal(reply)));
  };
}

function unauthorized(reply: FastifyReply, detail: string): FastifyReply {
  return reply.code(401).header("www-authenticate", "Bearer").send({ detail });
}

/**
 * Delays (through `delay`, the injector's seam), then destroys the connection without a reply
 * (`reset`) or answers `status` with a JSON detail. Returns the reply when it answered (or
 * hijacked it), undefined when only delayed.
 */
export async function applyFault(
  reply: FastifyReply,
  action: FaultAction,
  delay: (ms: number) => Promise<void>,
): Promise<FastifyReply | undefined> {
  if (action.latencyMs) await delay(action.latencyMs);
  if (action.reset) {
    // The client sees ECONNRESET / "socket hang up": it cannot tell whether the work was done.
    // Destroying the response destroys its socket, and also fails an inject() instead of hanging it.
    reply.hijack();
    reply.raw.destroy();
    return reply;
  }
  if (action.status === undefined) return undefined;
  if (action.retryAfterSeconds !== undefined) reply.header("retry-after", String(action.retryAfterSeconds));
  // The same body in both phases: like a real client, it must not learn whether the work was done.
  return reply.code(action.status).send({ detail: `Injected fault: ${action.status}` });
}

/** Aborts when the client closes the request before its answer was sent (it gave up waiting). */
export function goneSignal(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}
