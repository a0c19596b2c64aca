import { z } from "zod";

/** One field problem in a 422 body, FastAPI style: `loc` is the path, e.g. ["body", "voice"]. */
export const ValidationIssueSchema = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
/** One field problem in a 422 body. */
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

/** The 422 body: `{"detail": [{loc, msg, type}]}`. */
export const ValidationErrorBodySchema = z.object({ detail: z.array(ValidationIssueSchema) });
/** The 422 body. */
export type ValidationErrorBody = z.infer<typeof ValidationErrorBodySchema>;

/** The body of every other error (401, 404, 405, 413, 429, 5xx): `{"detail": "..."}`. */
export const MessageErrorBodySchema = z.object({ detail: z.string() });
/** A plain error body. */
export type MessageErrorBody = z.infer<typeof MessageErrorBodySchema>;
