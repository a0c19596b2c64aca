import { parseToken } from "../identity.js";
import { markSecrets } from "../resources/kit/function.js";
import type { KindRequest } from "../resources/kit/requests.js";
import { ProviderFailure, Secret, type InvokeRequest, type InvokeResponse } from "./protocol.js";

// The plugin's Invoke in plain terms: a function's token and arguments in, its result (secret keys
// as Secret values, which the protobuf edge wraps the engine's way) or the argument failures out. Only reads are sent, in preview too:
// the engine runs invokes while it previews.

/**
 * Runs the function a token names. The keys a function declares secret come back as Secrets, so
 * the engine keeps them secret whatever this plugin answers about accepting secrets (Invoke's
 * return is unmarshalled with KeepSecrets: pkg/resource/plugin/provider_plugin.go, v3.274.1).
 */
export async function invoke({ scope }: KindRequest, req: InvokeRequest, version: string): Promise<InvokeResponse> {
  const { FUNCTION_NAMES, invokeFunction, secretPathsOf } = await import("../resources/functions/invoke.js");
  // A function's token is the package's native token of its name (identity.ts), like a kind's.
  const token = parseToken(req.tok);
  const name = token?.provider === "native" ? token.kind : "";
  if (!FUNCTION_NAMES.includes(name)) {
    throw new ProviderFailure(
      `${req.tok} is not a function this plugin serves (the voiceagent plugin is ${version}; it serves ${FUNCTION_NAMES.join(", ")}): ` +
        "install the plugin that matches the SDK. Nothing was sent to the service.",
      undefined,
      "E_UNKNOWN_FUNCTION",
      false,
    );
  }
  const outcome = await invokeFunction({ scope, name, args: req.args });
  if (outcome.failures) return { return: {}, failures: outcome.failures };
  return { return: markSecrets(outcome.result, secretPathsOf(name), (value) => new Secret(value)), failures: [] };
}
