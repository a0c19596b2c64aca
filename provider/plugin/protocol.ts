import type { AutonamingMode } from "../resources/kit/autoname.js";
import type { CheckFailure } from "../resources/kit/check.js";
import type { InvokeFailure } from "../resources/functions/invoke.js";
import type { Props } from "../resources/kit/kind.js";
import type { DiffKind } from "../resources/kit/results.js";
import { VoiceAgentError } from "../voiceagent-error.js";

// The provider as plain TypeScript: requests and results are plain objects, the diff kinds a plain
// union. Only plugin/grpc.ts turns the engine's protobuf messages into these and back, so nothing
// below it (the provider, the kinds, the kit) knows protobuf or `pulumi.dynamic`. Property maps
// are plain JSON, secrets unwrapped and unknowns kept as the kit's `UNKNOWN` string.

export type { AutonamingMode, DiffKind };

/** What every request about a resource (or the provider's own config) names. */
export interface ResourceRequest {
  urn: string;
  /** The resource's type token; empty when the engine leaves it out (the URN then says). */
  type: string;
}

/** CheckConfig and Check: the old and new inputs. */
export interface CheckRequest extends ResourceRequest {
  olds: Props;
  news: Props;
  /** The resource's logical name (Check's `name`; empty from an engine that sends none: the URN then says). */
  name?: string;
  /** What the engine asks of the resource's name (`pulumi:autonaming`), when it asks: kit/autoname.ts. */
  autonaming?: { mode: AutonamingMode; proposedName: string };
}

/** What Check (and CheckConfig) answers: the inputs to record, or why they cannot be. */
export interface CheckResponse {
  /** Unset when the request names no kind this provider serves. */
  inputs?: Props;
  failures: CheckFailure[];
}

/** DiffConfig and Diff: the recorded outputs and inputs, and the program's new inputs. */
export interface DiffRequest extends ResourceRequest {
  id: string;
  olds: Props;
  /** The recorded inputs; undefined when the engine sends none (older engines). */
  oldInputs?: Props;
  news: Props;
  /** The resource's `ignoreChanges` paths (`config.phoneNumber`, `items[*].name`): never a change (plugin/ignore-changes.ts). */
  ignoreChanges?: readonly string[];
}

/** How one property differs, and whether it was compared with the old inputs (else the recorded outputs). */
export interface PropertyChange {
  kind: DiffKind;
  inputDiff: boolean;
}

/** What Diff answers: which properties change, how, and whether that replaces. */
export interface DiffResponse {
  changes: boolean;
  /** Each property that differs, in order. */
  detailed: Record<string, PropertyChange>;
  replaces: string[];
  /** The inputs that stay as they are. */
  stables: string[];
  deleteBeforeReplace: boolean;
}

/** Configure: the provider's config (namespace removed), and which keys arrived as plain text where the engine says. */
export interface ConfigureRequest {
  config: Props;
  /** Keys whose value the engine sent without a secret wrapper; undefined with the older `variables` form, which does not say. */
  plainKeys?: readonly string[];
}

/**
 * A request that may reach the service: the resource's `customTimeouts` for it, in seconds, which
 * the engine sends as `timeout` (0 or unset: none given, the provider's operationTimeout applies).
 */
export interface TimedRequest extends ResourceRequest {
  timeout?: number;
}

/**
 * Top-level outputs the engine must store as secrets, whatever it knows of the inputs: the
 * schema's secret outputs (a call's transcript). The engine re-marks an output only when an input
 * of the same name was secret, and on `pulumi import` not at all.
 */
export interface SecretOutputs {
  secrets?: readonly string[];
}

/** Create, or its preview. */
export interface CreateRequest extends TimedRequest {
  properties: Props;
  preview: boolean;
}

/** What Create answers: the id ("" in a preview) and the outputs. */
export interface CreateResponse extends SecretOutputs {
  id: string;
  properties: Props;
}

/** Read (refresh), or an import when no properties are recorded. */
export interface ReadRequest extends TimedRequest {
  id: string;
  properties: Props;
  inputs: Props;
}

/** What Read answers: no id when the object is gone. */
export type ReadResponse =
  | { id: ""; properties?: undefined; inputs?: undefined }
  | ({ id: string; properties: Props; inputs: Props } & SecretOutputs);

/** Update, or its preview. */
export interface UpdateRequest extends TimedRequest {
  id: string;
  olds: Props;
  oldInputs: Props;
  news: Props;
  preview: boolean;
}

/** Delete. */
export interface DeleteRequest extends TimedRequest {
  id: string;
  properties: Props;
}

/** The outputs of a create, update or read. */
export interface PropertiesResponse extends SecretOutputs {
  properties: Props;
}

/**
 * The native provider in plain types, one method per resource-provider request. Every failure is
 * thrown as a {@link ProviderFailure}.
 */
export interface PlainProvider {
  getPluginInfo(): { version: string };
  getSchema(): string;
  checkConfig(req: CheckRequest): Promise<CheckResponse>;
  diffConfig(req: DiffRequest): Promise<DiffResponse>;
  configure(req: ConfigureRequest): Promise<void>;
  check(req: CheckRequest): Promise<CheckResponse>;
  diff(req: DiffRequest): Promise<DiffResponse>;
  create(req: CreateRequest): Promise<CreateResponse>;
  read(req: ReadRequest): Promise<ReadResponse>;
  update(req: UpdateRequest): Promise<PropertiesResponse>;
  delete(req: DeleteRequest): Promise<void>;
  /** A function (getVoice...), by its token: only reads, in preview too. */
  invoke(req: InvokeRequest): Promise<InvokeResponse>;
  /**
   * The engine is cancelling the deployment (Ctrl-C, a pipeline's timeout): nothing more is sent,
   * requests in flight are aborted, and each operation fails saying what it may have done.
   */
  cancel(): Promise<void>;
}

/** Invoke: a function's token and its arguments. */
export interface InvokeRequest {
  tok: string;
  args: Props;
}

/** What Invoke answers: the result (its secret keys as {@link Secret}s), or why the arguments were refused (nothing was sent). */
export interface InvokeResponse {
  return: Props;
  failures: InvokeFailure[];
}

/** A value the engine must keep secret (the edge sends it in the engine's secret wrapper). */
export class Secret {
  constructor(readonly value: unknown) {}
}

/** A create that made an object but could not finish: the engine keeps it tracked with this id and these outputs. */
export interface PartialCreate extends SecretOutputs {
  id: string;
  properties: Props;
  reasons: string[];
  /** Whether these reasons must reach the engine for the next run to finish it (kit/errors.ts `PartialCreateError`). */
  retriedByReasons: boolean;
  /** The inputs of the request that made it. */
  inputs?: Props;
}

/**
 * How every provider request fails: a message for the user (redacted: it says what failed,
 * whether the service may have acted and what to do; no stack) and, for a partial create, what
 * the engine must keep.
 */
export class ProviderFailure extends VoiceAgentError {
  constructor(
    message: string,
    readonly partial?: PartialCreate,
    /**
     * What failed, for callers that branch: the refusal's code (kit/refusal.ts) when the provider
     * refused, the client's code (E_AUTH, E_OUTCOME_UNKNOWN...) when the service failed, the kit's
     * (kit/errors.ts); E_UNEXPECTED for a failure none of them worded.
     */
    readonly code: string = "E_UNEXPECTED",
    /** Whether the service may have carried the request out (false for a refusal; true when not known). */
    readonly mayHaveActed: boolean = true,
  ) {
    super(message);
    this.name = "ProviderFailure";
  }
}
