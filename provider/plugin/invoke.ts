import type { CheckFailure } from "../resources/kit/check.js";
import { markSecrets } from "../resources/kit/function.js";
import type { Props } from "../resources/kit/kind.js";
import type { ProviderSettings } from "../resources/kit/settings.js";

// The plugin's Invoke in plain terms: a function's token and arguments in, its result (secret keys
// wrapped the way the edge says) or the argument failures out. Only reads are sent, in preview too:
// the engine runs invokes while it previews.

/** The package's function tokens are `voiceagent:index:<name>`. */
const TOKEN = /^voiceagent:index:([A-Za-z]+)$/;

/** An Invoke request: the function's token and its arguments (secrets unwrapped). */
export interface InvokeRequest {
  tok: string;
  args: Props;
}

/** What Invoke answers: the result, or why the arguments were refused (then nothing was sent). */
export interface InvokeResponse {
  return: Props;
  failures: CheckFailure[];
}

/**
 * Runs the function a token names. `wrapSecret` turns one value into the engine's secret form
 * (the protobuf edge's business): the keys a function declares secret come back wrapped, so the
 * engine keeps them secret whatever this plugin answers about accepting secrets.
 */
export async function invoke(settings: ProviderSettings | undefined, req: InvokeRequest, version: string, wrapSecret: (value: unknown) => unknown): Promise<InvokeResponse> {
  const { FUNCTION_NAMES, invokeFunction, secretPathsOf } = await import("../resources/functions/invoke.js");
  const name = TOKEN.exec(req.tok)?.[1] ?? "";
  if (!FUNCTION_NAMES.includes(name)) {
    throw new Error(
      `${req.tok} is not a function this plugin serves (the voiceagent plugin is ${version}; it serves ${FUNCTION_NAMES.join(", ")}): ` +
        "install the plugin that matches the SDK. Nothing was sent to the service.",
    );
  }
  const outcome = await invokeFunction(name, settings, req.args);
  if (outcome.failures) return { return: {}, failures: outcome.failures };
  return { return: markSecrets(outcome.result, secretPathsOf(name), wrapSecret), failures: [] };
}
