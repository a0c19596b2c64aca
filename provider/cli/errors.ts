import {
  ApiAuthError,
  ApiConnectionError,
  ApiError,
  ApiNotFoundError,
  ApiRateLimitError,
  ApiSchemaError,
  redact,
} from "../client/index.js";

/** Exit codes of every `voiceagent` command: pipelines branch on them. */
export const EXIT = {
  /** Nothing found: the account and the stacks agree. */
  clean: 0,
  /** The command could not do its job: bad input, refused token, unreachable service. */
  error: 1,
  /** The command worked and found drift, unmanaged or missing objects. */
  found: 3,
} as const;

/** An exit code of the `voiceagent` command. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the user can act on: its message is one line, already worded for them. */
export class CliError extends Error {
  override name = "CliError";
}

/** Every command here only reads the service: said on each error so nobody wonders. */
const READ_ONLY = "nothing was changed on the service";

/**
 * One line for any error: what went wrong, what to do next, and that the service was not
 * changed (every command here only reads it). API errors are reworded for the command line
 * (flags and environment variables instead of stack config); the token never appears, whatever
 * the error holds.
 */
export function oneLine(err: unknown, baseUrl?: string): string {
  const where = baseUrl ? ` ${baseUrl}` : " the service";
  let text: string;
  if (err instanceof CliError) text = err.message;
  else if (err instanceof ApiAuthError) {
    text = `the token was refused by${where} (${err.status} on ${err.method} ${err.path}): check VOICEAGENT_TOKEN`;
  } else if (err instanceof ApiSchemaError) {
    text = `${err.method} ${err.path} on${where} did not answer like the voice agent service: is --base-url (or VOICEAGENT_BASE_URL) the service's address?`;
  } else if (err instanceof ApiNotFoundError) {
    text = `${err.method} ${err.path} does not exist on${where} (404): is --base-url (or VOICEAGENT_BASE_URL) the service's address, and does it have the list endpoints?`;
  } else if (err instanceof ApiConnectionError) {
    text = `could not reach${where} (${err.code === "E_TIMEOUT" ? "timed out" : err.cause instanceof Error ? err.cause.message : err.code}): is the service running and --base-url (or VOICEAGENT_BASE_URL) right?`;
  } else if (err instanceof ApiRateLimitError) {
    text = `${where.trim()} kept rate limiting the listing (429): run again later`;
  } else if (err instanceof ApiError) text = err.message;
  else if (err instanceof Error) text = err.message;
  else text = String(err);
  if (!text.includes("nothing was changed")) text = `${text.replace(/[.;:\s]+$/, "")}; ${READ_ONLY}`;
  return redact(text)
    .replace(/\s*[\r\n]+\s*/g, " ")
    .trim();
}

/** The `code` of a Node system error (ENOENT, EACCES, ...), if it has one. */
export function errnoCode(err: unknown): string | undefined {
  return err instanceof Error && "code" in err && typeof err.code === "string" ? err.code : undefined;
}
