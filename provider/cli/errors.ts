import {
  ApiAuthError,
  ApiConnectionError,
  ApiError,
  ApiNotFoundError,
  ApiRateLimitError,
  ApiSchemaError,
  redact,
  type ApiErrorCode,
} from "../client/index.js";
import { VoiceAgentError } from "../voiceagent-error.js";

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

/**
 * What a failed command says it was, for pipelines that branch: the client's code when the service
 * failed (E_AUTH, E_CONNECTION...), else E_COMMAND (the command's own input: a flag, a file, a
 * stack, the Pulumi CLI).
 */
export type CliErrorCode = ApiErrorCode | "E_COMMAND";

/**
 * A failure the user can act on: its message is one line, already worded for them. It keeps the
 * code of the failure it words and whether the service may have acted (every command here only
 * reads the service, so that is false unless the service's own failure said otherwise).
 */
export class CliError extends VoiceAgentError {
  override name = "CliError";
  readonly code: CliErrorCode;
  readonly mayHaveActed: boolean;
  constructor(message: string, kept?: { code: CliErrorCode; mayHaveActed: boolean }) {
    super(message);
    this.code = kept?.code ?? "E_COMMAND";
    this.mayHaveActed = kept?.mayHaveActed ?? false;
  }
}

/** Any error as a CliError: worded on one line (oneLine), with the code and mayHaveActed it had. */
export function cliError(err: unknown, baseUrl?: string): CliError {
  const message = oneLine(err, baseUrl);
  return err instanceof ApiError || err instanceof CliError
    ? new CliError(message, { code: err.code, mayHaveActed: err.mayHaveActed })
    : new CliError(message);
}

/**
 * What `--json` prints when a command fails (to stdout, where its report would have gone; the
 * line on stderr is the same message): a pipeline reads the code and whether the service may have
 * acted without parsing prose.
 */
export function failureJson(err: CliError): string {
  const { code, mayHaveActed, message } = err;
  return `${JSON.stringify({ error: { code, mayHaveActed, message } }, null, 2)}\n`;
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
    text =
      `${err.method} ${err.path} on${where} did not answer like the voice agent service: is --base-url (or ` +
      `VOICEAGENT_BASE_URL) the service's address?`;
  } else if (err instanceof ApiNotFoundError) {
    text =
      `${err.method} ${err.path} does not exist on${where} (404): is --base-url (or VOICEAGENT_BASE_URL) the ` +
      `service's address, and does it have the list endpoints?`;
  } else if (err instanceof ApiConnectionError) {
    text =
      `could not reach${where} ` +
      `(${err.code === "E_TIMEOUT" ? "timed out" : err.cause instanceof Error ? err.cause.message : err.code}): is ` +
      `the service running and --base-url (or VOICEAGENT_BASE_URL) right?`;
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
