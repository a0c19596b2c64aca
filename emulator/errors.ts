import type { FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import {
  collections,
  currentOnlyRoutes,
  type EndpointDef,
  endpoints,
  type ValidationIssue,
} from "pulumi-voiceagent/schemas";
import { pathOf } from "./request-context.js";
import { HttpFailure } from "./http-failure.js";

/** A zod issue as FastAPI reports it: `loc` starts with where the value was ("body", "query"). */
export function issuesToDetail(
  where: string,
  issues: readonly { path: readonly PropertyKey[]; message: string; code: string }[],
): ValidationIssue[] {
  return issues.map((i) => ({
    loc: [where, ...i.path.map((p) => (typeof p === "number" ? p : String(p)))],
    msg: i.message,
    type: i.code,
  }));
}

/**
 * Every error the app answers: schema failures as FastAPI-style 422s naming the field, service
 * failures with their status, HTTP edge cases as 4xx; only a bug is a 500, and it is logged.
 */
export function errorHandler(err: Error & { statusCode?: number }, req: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(err)) {
    const where = err.validationContext === "querystring" ? "query" : (err.validationContext ?? "body");
    const detail = err.validation.map((v) => {
      const path = v.instancePath
        .split("/")
        .filter(Boolean)
        .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
      const missing = /received undefined/.test(v.message ?? "");
      return {
        loc: [where, ...path],
        msg: missing ? "Field required" : (v.message ?? "invalid value"),
        type: missing ? "missing" : v.keyword,
      };
    });
    return reply.code(422).send({ detail });
  }
  if (err instanceof HttpFailure) return reply.code(err.status).send({ detail: err.detail });
  const status = typeof err.statusCode === "number" ? err.statusCode : 500;
  if (status === 413) return reply.code(413).send({ detail: "Request body too large" });
  if (status === 415) return reply.code(415).send({ detail: "Unsupported Media Type: send application/json" });
  if (status >= 400 && status < 500) {
    return reply.code(status).send({ detail: status === 400 ? "Malformed JSON body" : err.message });
  }
  req.log.error({ err }, "unhandled error");
  return reply.code(500).send({ detail: "Internal Server Error" });
}

/**
 * 405 with Allow for a known path called with the wrong method, 404 for anything else. The routes
 * only the current API has are known paths in its dialect only (the interface's answers them 404).
 */
export function notFoundHandler(api: "2023" | "2024" = "2023") {
  const allowed = new Map<string, Set<string>>();
  const current: EndpointDef[] =
    api === "2024"
      ? [...Object.values(collections).flatMap((c) => Object.values(c.routes)), ...Object.values(currentOnlyRoutes)]
      : [];
  for (const ep of [...Object.values(endpoints), ...current]) {
    const path = trimSlash(ep.path);
    allowed.set(path, (allowed.get(path) ?? new Set()).add(ep.method));
  }
  return (req: FastifyRequest, reply: FastifyReply) => {
    const methods = allowed.get(trimSlash(pathOf(req.url)));
    if (methods)
      return reply
        .code(405)
        .header("allow", [...methods].join(", "))
        .send({ detail: "Method Not Allowed" });
    return reply.code(404).send({ detail: "Not Found" });
  };
}

function trimSlash(path: string): string {
  return path.replace(/(.)\/+$/, "$1");
}
