/**
 * What every refusal before a request adds: preview (or the program) stopped before anything
 * reached the service, so the user knows the service did not act. Its own module, free of zod, so
 * the root entry can say it without loading the schemas.
 */
export const NOTHING_SENT = "nothing was sent to the service";
