import type { ValidationIssue } from "pulumi-voiceagent/schemas";

/** A failure the HTTP layer turns into `{"detail": ...}` with this status. */
export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[],
  ) {
    super(typeof detail === "string" ? detail : detail.map((d) => d.msg).join("; "));
  }
}
