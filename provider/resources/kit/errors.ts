import { ApiError, ApiValidationError, redact } from "../../client/index.js";

/** Maps wire field names in a 422 `loc` to the resource's camelCase property names. */
export type FieldMap = Record<string, string>;

/**
 * True when the server lacks the route itself (an extension endpoint it does not have): 405, or a
 * 404 whose detail is the framework's bare "Not Found" rather than a missing object's message.
 */
export function isRouteMissing(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return (err.status === 404 && err.detail === "Not Found") || err.status === 405;
}

/** True when the object is gone (404 for the object, not for the route). */
export function isGone(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404 && !isRouteMissing(err);
}

/** An Error that keeps a created object tracked by Pulumi even though the operation failed. */
export class PartialCreateError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[],
  ) {
    super(message);
  }
}

/**
 * Rewrites a failure as "what failed, and what to do", naming the resource and, for 422s, the
 * property. The result holds no token: ApiErrors are redacted at construction and so is this.
 */
export function explain(kind: string, op: string, err: unknown, fields: FieldMap = {}): Error {
  const what = `voiceagent:${kind} ${op} failed`;
  if (!(err instanceof ApiError)) {
    const message = err instanceof Error ? err.message : String(err);
    return new Error(redact(`${what}: ${message}`));
  }
  let hint = "";
  if (err instanceof ApiValidationError && err.issues.length) {
    const named = err.issues.map((i) => {
      const key = String(i.loc[i.loc.length - 1] ?? "");
      const field = fields[key] ?? key;
      return `${field}: ${i.msg}`;
    });
    hint = ` The service refused: ${named.join("; ")}.`;
  } else if (err.code === "E_AUTH") {
    hint = " Set a valid token: pulumi config set --secret voiceagent:token <token> (or VOICEAGENT_TOKEN).";
  } else if (err.code === "E_CONNECTION" || err.code === "E_TIMEOUT") {
    hint = " Check voiceagent:baseUrl (or VOICEAGENT_BASE_URL) and that the service is up; the operation is safe to retry.";
  } else if (err.code === "E_RATE_LIMIT" || err.code === "E_SERVER") {
    hint = " The service is busy or failing; run the command again later.";
  } else if (isGone(err)) {
    hint = " It was deleted outside Pulumi or belongs to another token: run `pulumi refresh` to drop it from state.";
  }
  return new Error(redact(`${what}: ${err.message}.${hint}`).replace(/\.\./g, "."));
}
