import {
  ApiAmbiguousCreateError,
  ApiError,
  ApiValidationError,
  redact,
  type ApiErrorCode,
} from "../../client/index.js";
import { VoiceAgentError } from "../../voiceagent-error.js";
import { Refusal, type RefusalCode } from "./refusal.js";

/** What a failure message needs to know about the resource. */
export interface FailureContext {
  /** The kind (Voice...), or for a lookup (op "invoke") the function's name (getVoice...). */
  kind: string;
  op: "create" | "read" | "update" | "delete" | "invoke";
  /** Wire field name → property name, to name properties in the service's 422s. */
  names?: Record<string, string>;
  /** The input that adopts an existing object of this kind (agentId, voiceId...), if any. */
  adopt?: string;
  /** Which API generation the request was written for, and why (the client's `generation.describe()`). */
  generation?: string;
}

/** True when the object is gone: a 404 from a route the server has. */
export function isGone(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

/** An Error that keeps a created object tracked by Pulumi even though the operation failed. */
export class PartialCreateError extends VoiceAgentError {
  readonly code = "E_PARTIAL_CREATE";
  /** The service made the object. */
  readonly mayHaveActed = true;
  /**
   * What the engine shows the user: for a partial create it prints only these reasons, never the
   * message (pulumi v3.274.1 provider_plugin.go parseError; the dynamic host sends `reasons` the
   * same way), so they carry the whole explanation: that the object was made, that it is tracked
   * in the state and what to run next. They are recorded in the state too: no secret values. The
   * plugin and the dynamic host show an unsettled create's message through the engine's log
   * instead and send no reason (plugin/grpc.ts `shownPartial`, dynamic/dynamic-host.ts): the engine
   * lists reasons as `1 error occurred: * ...`. An object made but not read back keeps its reason:
   * the engine finishes it at the next run only because it recorded one.
   */
  readonly reasons: string[];
  /**
   * Whether the next run finishes it because the engine recorded its reason (an object made but
   * not read back: the engine runs an update for a resource with init errors), so the reason must
   * be sent. False for an unsettled create (kit/unsettled.ts), which the provider's own diff brings
   * back: its reason may be shown another way and left out.
   */
  readonly retriedByReasons: boolean;

  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    /** What went wrong, in short ("initialMessage not kept"): the message says it in full. */
    readonly findings: string[],
    options: { retriedByReasons?: boolean; reasonShown?: boolean } = {},
  ) {
    super(redact(message));
    this.retriedByReasons = options.retriedByReasons ?? true;
    this.reasons = options.reasonShown ? [] : [this.message];
  }

  /** The same failure recording other properties (the dynamic entry adds its serialized provider). */
  withProperties(properties: Record<string, unknown>): PartialCreateError {
    return new PartialCreateError(this.message, this.id, properties, this.findings, {
      retriedByReasons: this.retriedByReasons,
    });
  }

  /** The same failure with no reason, once its message was shown to the user another way. */
  shownElsewhere(): PartialCreateError {
    return new PartialCreateError(this.message, this.id, this.properties, this.findings, {
      retriedByReasons: this.retriedByReasons,
      reasonShown: true,
    });
  }
}

/** What the kit's own worded failures are, besides the client's codes and the refusals'. */
export type KitFailureCode =
  /**
   * The account's object is in a state the program cannot take over (a cancelled number, a number
   * linked another way, a value only a create sets): nothing was sent.
   */
  | "E_CONFLICT"
  /** The service lacks what the request needs (a route, a collection): nothing was sent. */
  | "E_UNSUPPORTED"
  /** A lookup this release does not serve: nothing was sent. */
  | "E_UNKNOWN_FUNCTION"
  /** A failure the provider did not foresee (a bug): whether the service acted is not known. */
  | "E_UNEXPECTED";

/** What a worded failure keeps: the client's code, a refusal's, or the kit's own. */
export type FailureCode = ApiErrorCode | RefusalCode | KitFailureCode;

/** What a failure found by the provider itself (no ApiError of its own) keeps. */
export interface Found {
  code: FailureCode;
  mayHaveActed: boolean;
  /** The client's error it words, when there was one (kept as the cause: it is redacted). */
  cause?: unknown;
}

/**
 * A failure worded for the user, that keeps what callers branch on: the client's `code` and
 * whether the service may have acted, with the client's error as its `cause` (or, for what a kind
 * or lookup finds itself, the code and `mayHaveActed` it gives). Its
 * message is the whole explanation, the text the engine prints (it passes a provider's failure on
 * as text only); the fields are for the edges that carry more (the plugin's failure, the CLI's
 * JSON, a program's own catch).
 */
export class ExplainedError extends VoiceAgentError {
  // Its name stays "Error": the dynamic provider host prints `${err}: ${err.stack}` for a failed
  // read or delete, and that text is the one users read today.
  readonly code: FailureCode;
  /** Whether the service may have carried the request out (the client's `mayHaveActed`). */
  readonly mayHaveActed: boolean;
  /** The HTTP status; 0 when no response arrived. */
  readonly status: number;
  /** The service's X-Request-Id, when it sent one. */
  readonly requestId: string | undefined;

  constructor(message: string, from: ApiError | ExplainedError | Found) {
    const worded = from instanceof ApiError || from instanceof ExplainedError ? from : undefined;
    // Only the package's errors are kept as the cause: they are redacted when built.
    const cause = worded ?? (from.cause instanceof VoiceAgentError ? from.cause : undefined);
    super(redact(message), cause ? { cause } : undefined);
    this.code = from.code;
    this.mayHaveActed = from.mayHaveActed;
    this.status = worded?.status ?? 0;
    this.requestId = worded?.requestId;
    if (this.stack) this.stack = redact(this.stack);
  }

  /** A plain, redacted view for logs and JSON. */
  toJSON(): Record<string, unknown> {
    return {
      code: this.code,
      mayHaveActed: this.mayHaveActed,
      status: this.status,
      requestId: this.requestId,
      message: this.message,
    };
  }
}

/** The sentence every partial create of an object the service made ends with: it exists, it is tracked. */
const TRACKED =
  "The object exists on the service and is tracked in the state: run `pulumi up` again to read it back and finish; it is not made a second time.";

/**
 * A create the service carried out but whose answer could not be read, kept tracked by the id the
 * answer carried. The recorded properties are the program's inputs: the engine retries the
 * resource with an update, which sends them again (or reads the object back) and records what
 * the service holds.
 */
export function unreadableCreate(
  kind: string,
  id: string,
  summary: string,
  inputs: Record<string, unknown>,
): PartialCreateError {
  return new PartialCreateError(
    `voiceagent:${kind} create: the service answered with ${kind} ${id}, but the rest of its answer could not be read (${summary}). ${TRACKED}`,
    id,
    { ...inputs },
    [summary],
  );
}

/**
 * A create the service carried out and answered (`summary` names the object and what failed after),
 * after which the record of creates the provider processes of a deployment share could not be
 * updated (its folder removed, its lock not taken in time): the object exists, so it is kept
 * tracked by its id as a partial create, exactly as an unreadable answer is; the engine finishes it
 * with an update at the next `pulumi up`.
 */
export function untrackedCreate(
  kind: string,
  id: string,
  summary: string,
  inputs: Record<string, unknown>,
): PartialCreateError {
  return new PartialCreateError(`voiceagent:${kind} create: ${summary}. ${TRACKED}`, id, { ...inputs }, [summary]);
}

/**
 * Rewrites a failure as: what failed, whether the service may have acted, and what to do next.
 * Built from the error's parts (its summary, never its full message), so no sentence repeats. The
 * result holds no token: ApiErrors are redacted when built, and so is this. A failure of the
 * service stays one (an ExplainedError with its code, whether it may have acted, and the client's
 * error as cause), a refusal stays a refusal with its code: only the words change.
 */
export function explain(ctx: FailureContext, err: unknown): Refusal | ExplainedError {
  const what = ctx.op === "invoke" ? `voiceagent:${ctx.kind} failed` : `voiceagent:${ctx.kind} ${ctx.op} failed`;
  // The provider's own refusal keeps its code (callers tell refusals apart by it, not by text).
  if (err instanceof Refusal) return new Refusal(err.code, redact(`${what}: ${err.message}`));
  if (err instanceof ApiError)
    return new ExplainedError(`${what}: ${sentence(headline(err))} ${advice(ctx, err)}`, err);
  // A kind's own finding is worded already: it keeps its code and whether the service may have acted.
  if (err instanceof ExplainedError) return new ExplainedError(`${what}: ${err.message}`, err);
  const message = err instanceof Error ? err.message : String(err);
  // No cause kept: an error that is not the package's was never redacted. Unforeseen, so the
  // service may have acted for all the provider knows.
  return new ExplainedError(`${what}: ${message}`, { code: "E_UNEXPECTED", mayHaveActed: true });
}

/**
 * A check that could not learn which API generation the service speaks (voiceagent:api is auto):
 * said at preview, with what to fix, and how to check without asking. Only the probe was sent, a
 * read: nothing was written. A failure of a check: no property named (see CheckFailure).
 */
export function probeFailure(kind: string, err: unknown): { property: ""; reason: string } {
  const summary = err instanceof ApiError ? err.summary : err instanceof Error ? err.message : String(err);
  const fix =
    err instanceof ApiError && err.code === "E_CONNECTION"
      ? "Check voiceagent:baseUrl (or VOICEAGENT_BASE_URL) and that the service is up"
      : err instanceof ApiError && err.code === "E_AUTH"
        ? "Set a valid token: pulumi config set --secret voiceagent:token <token> (or VOICEAGENT_TOKEN)"
        : "Run the command again once the cause is fixed";
  return {
    property: "",
    reason: redact(
      `voiceagent:${kind} cannot be checked: voiceagent:api is auto, and asking the service which API it speaks ` +
        `(a read of one page of its agent list) failed: ${sentence(summary)} Nothing was written to the service. ` +
        `${fix}; or set the API so that checks need not ask: \`pulumi config set voiceagent:api 2024\` (2023 for the interface)`,
    ),
  };
}

function headline(err: ApiError): string {
  // Reconciliation errors already say what the list showed; keep that, it is the finding.
  return err.code === "E_OUTCOME_UNKNOWN" || err.code === "E_AMBIGUOUS" ? err.message : err.summary;
}

function advice(ctx: FailureContext, err: ApiError): string {
  if (err instanceof ApiValidationError && err.issues.length && !err.mayHaveActed) {
    const named = err.issues.map(
      (i) => `${ctx.names?.[String(i.loc[i.loc.length - 1] ?? "")] ?? String(i.loc[i.loc.length - 1] ?? "")}: ${i.msg}`,
    );
    // The two API generations take different bodies: a refusal may mean the wrong one was assumed.
    const written = ctx.generation
      ? ` The request was written for the API it assumed (${ctx.generation}); if the service speaks the other generation, set voiceagent:api.`
      : "";
    return `The service refused ${named.join("; ")}, and changed nothing. Fix the value and run the command again.${written}`;
  }
  if (err.code === "E_AUTH" && !err.mayHaveActed) {
    return "The service changed nothing. Set a valid token: pulumi config set --secret voiceagent:token <token> (or VOICEAGENT_TOKEN).";
  }
  if (isGone(err) && ctx.op === "create") {
    // Nothing existed before a create, so "deleted outside Pulumi" cannot be the cause.
    return (
      `The service changed nothing: it has no route ${err.method} ${err.path.replace(/\?.*$/, "")} ` +
      "at voiceagent:baseUrl (it must be the service's root URL), " +
      "or something the request names is not in this account (a number it does not own, an agent, voice, action or webhook id). " +
      "Fix that and run `pulumi up` again."
    );
  }
  if (isGone(err) && ctx.op === "invoke") {
    return (
      "The service changed nothing: it has no such object for this token, or no such route at " +
      "voiceagent:baseUrl. Check what was looked up and the stack's voiceagent:baseUrl and token."
    );
  }
  if (isGone(err)) {
    return "It was deleted outside Pulumi or belongs to another token: run `pulumi refresh` to drop it from the state.";
  }
  if (err instanceof ApiAmbiguousCreateError) {
    const adopt = ctx.adopt ? `set ${ctx.adopt} to the id of the one to keep` : "keep the one you want";
    return `To go on, ${adopt} and run \`pulumi up\` again; the service has no delete, so the other stays in the account.`;
  }
  if (err.code === "E_GENERATION") {
    return (
      "Nothing was sent to the service. Change the program to what that API can do, or set voiceagent:api " +
      "(2023 or 2024) if the service speaks the other one."
    );
  }
  if (!err.mayHaveActed) {
    if (err.code === "E_CONNECTION")
      return "Nothing reached the service. Check voiceagent:baseUrl (or VOICEAGENT_BASE_URL) and that the service is up, then run the command again.";
    if (err.code === "E_RATE_LIMIT") return "The service did not act on it. Run the command again later.";
    return "The service did not act on it. Run the command again once the cause is fixed.";
  }
  if (ctx.op === "create") {
    const adopt = ctx.adopt ? `, and if it is there set ${ctx.adopt} to adopt it instead of making another` : "";
    // A reconciliation error has said already that the service may have made it.
    const may = err.code === "E_OUTCOME_UNKNOWN" ? "" : "The service may have made it. ";
    return `${may}Before running \`pulumi up\` again, look for it in the account (\`voiceagent audit\` lists objects that no stack manages)${adopt}.`;
  }
  if (ctx.op === "update")
    return "The service may have applied the change. Running `pulumi up` again is safe: an update sends the same values.";
  if (ctx.op === "delete")
    return (
      "The service may have done it, and the state still records it as before: `pulumi refresh` reads what the service holds now. " +
      "Running the command again is safe: it ends or unbinds the same way."
    );
  return "Run the command again.";
}

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
