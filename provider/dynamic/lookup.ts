import * as pulumi from "@pulumi/pulumi";
import { refuseBadConfig } from "./config-guard.js";
import { VoiceAgentError } from "../voiceagent-error.js";
import { PROGRAM_HOST } from "./program.js";

// The functions of the dynamic entry: dynamic providers cannot serve invokes (the Node dynamic
// provider host answers every one with "unknown function"), so these run in the program itself,
// with the stack's `voiceagent:*` config, through the same code as the native plugin's Invoke.
// The client (got, zod) is loaded on the first call only, as the resources never load it here.

/**
 * Runs function `name` and answers its result. `R` is the result's generated plain type; the value
 * was parsed by the function's own result schema before it got here. Argument problems and failed
 * reads throw, naming what was looked up.
 */
export async function lookup<R>(name: string, args: object): Promise<R> {
  refuseBadConfig();
  const { invokeFunction } = await import("../resources/functions/invoke.js");
  const config = { get: (key: string) => pulumi.runtime.getConfig(key) };
  const settings = { baseUrl: config.get("voiceagent:baseUrl"), token: config.get("voiceagent:token"), config };
  const { RequestScope } = await import("../resources/kit/scope.js");
  // The program's process has no configure: its lookup's settings are resolved here, once per call.
  const scope = RequestScope.of(PROGRAM_HOST, settings);
  const outcome = await scope
    .run(() => invokeFunction({ scope, name, args: { ...args } }))
    .catch(async (err: unknown) => {
      throw await shown(err);
    });
  if (outcome.failures)
    throw new LookupFailure(
      `${outcome.failures.map((f) => f.reason).join("; ")}; nothing was sent to the service: correct the arguments and run again`,
      "E_INVALID_ARGS",
      false,
    );
  return resultOf<R>(outcome.result);
}

/**
 * A failure of the service, as this program prints it and its own catch reads it. The program
 * prints an unhandled error whole (util.inspect: its fields, its cause); a RunError is printed as
 * its message alone, the words a resource's failure has (the lookup's own advice, not the client's
 * "check the token the client was given"), and keeps the code and whether the service may have
 * acted for a program that catches it.
 */
class LookupFailure extends VoiceAgentError {
  // How @pulumi/pulumi recognises a RunError across copies of the SDK (RunError.isInstance): one of
  // the package's errors, printed as a RunError is.
  readonly __pulumiRunError = true;
  constructor(
    message: string,
    readonly code: string,
    readonly mayHaveActed: boolean,
  ) {
    super(message);
  }
}

async function shown(err: unknown): Promise<unknown> {
  const { ExplainedError } = await import("../resources/kit/errors.js");
  return err instanceof ExplainedError ? new LookupFailure(err.message, err.code, err.mayHaveActed) : err;
}

/** The result as its generated type: the function's result schema parsed it, the generator wrote the type from the same schema. */
function resultOf<R>(value: unknown): R {
  return value as R;
}

/**
 * The Output form: runs once the arguments are known (during preview too) and is secret as a
 * whole when the function's result holds a secret (`secret`, from its declaration).
 */
export function lookupOutput<R>(name: string, args: pulumi.Inputs, secret: boolean): pulumi.Output<R> {
  // Secret arguments make the result secret: the engine's rule for invokes, and this one's.
  const source = secret ? pulumi.secret(args) : pulumi.output(args);
  return source.apply((known) => lookup<R>(name, known));
}
