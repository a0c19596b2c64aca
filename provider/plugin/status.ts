import { redact } from "../client/index.js";
import { PartialCreateError } from "../resources/kit/errors.js";
import type { Props } from "../resources/kit/kind.js";
import { VoiceAgentError } from "../voiceagent-error.js";
import { ProviderFailure } from "./protocol.js";

/**
 * Whatever a request threw, as the provider's failure. A create that made an object but could not
 * finish (PartialCreateError) keeps its id, outputs and reasons, so the engine keeps the object
 * tracked, as the dynamic host does (sdk/nodejs/cmd/dynamic-provider `grpcResponseFromError` in
 * @pulumi/pulumi 3.276.0). Its message is the one the kit worded (what failed, whether the service may
 * have acted and what to do), redacted once more on the way out; its code and whether the service
 * may have acted are the ones the error kept (every error of the package has them: VoiceAgentError),
 * never read back from the text.
 */
export function failureOf(err: unknown, inputs?: Props, secrets?: readonly string[]): ProviderFailure {
  const message = redact(err instanceof Error ? err.message : String(err));
  const kept = err instanceof VoiceAgentError ? err : undefined;
  if (!(err instanceof PartialCreateError))
    return new ProviderFailure(message, undefined, kept?.code, kept?.mayHaveActed);
  return new ProviderFailure(
    message,
    {
      id: err.id,
      properties: err.properties,
      reasons: err.reasons,
      retriedByReasons: err.retriedByReasons,
      ...(inputs ? { inputs } : {}),
      ...(secrets ? { secrets } : {}),
    },
    err.code,
    err.mayHaveActed,
  );
}
