import { redact } from "../client/index.js";
import { PartialCreateError } from "../resources/kit/errors.js";
import type { Props } from "../resources/kit/kind.js";
import { Refusal } from "../resources/kit/refusal.js";
import { ProviderFailure } from "./protocol.js";

/**
 * Whatever a request threw, as the provider's failure. A create that made an object but could not
 * finish (PartialCreateError) keeps its id, outputs and reasons, so the engine keeps the object
 * tracked, as the dynamic host does (sdk/nodejs/cmd/dynamic-provider `grpcResponseFromError` in
 * pulumi v3.259.0). Anything else is its message alone: the kit's messages say what failed,
 * whether the service may have acted and what to do. Redacted once more on the way out.
 */
export function failureOf(err: unknown, inputs?: Props, secrets?: readonly string[]): ProviderFailure {
  const message = redact(err instanceof Error ? err.message : String(err));
  if (err instanceof Refusal) return new ProviderFailure(message, undefined, err.code);
  if (!(err instanceof PartialCreateError)) return new ProviderFailure(message);
  return new ProviderFailure(message, {
    id: err.id,
    properties: err.properties,
    reasons: err.reasons,
    ...(inputs ? { inputs } : {}),
    ...(secrets ? { secrets } : {}),
  });
}
