import type { FastifyRequest } from "fastify";
import { HttpFailure } from "./http-failure.js";

/** The caller behind a request, after auth. */
export interface Caller {
  userId: string;
  /** Users are numbered in order of creation; the seed uses it for distinct phone numbers. */
  seq: number;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the auth hook; null on the routes exempt from auth. */
    caller: Caller | null;
    /** "METHOD /path" for requests under /v1 (the stats key), "" otherwise. */
    routeKey: string;
  }
}

/** The request's path, without the query string. */
export function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/**
 * The authenticated caller. The auth hook runs on every route but two, so a missing caller is a
 * route registered without auth: answered 401, never a crash.
 */
export function callerOf(req: FastifyRequest): Caller {
  if (!req.caller) throw new HttpFailure(401, "Not authenticated");
  return req.caller;
}
