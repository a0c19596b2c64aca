import { parseToken } from "../identity.js";
import { Refusal } from "../resources/kit/refusal.js";
import type { KindRuntime } from "../resources/kit/runtime.js";
import { KIND_NAMES, KINDS as REGISTRY } from "../resources/kinds/index.js";

const runtimes: ReadonlyMap<string, KindRuntime> = new Map(REGISTRY.map((k) => [k.kind, k.runtime]));

/** A request's resource type, resolved to the runtime of its kind, or why it cannot be. */
export interface KindDispatch {
  runtime: KindRuntime | undefined;
  /** Why there is no runtime (empty when there is one). */
  problem: string;
  /** The runtime, or an error saying why there is none. */
  orThrow(): KindRuntime;
  /** A check failure's reason, with both versions named when it is about a property this plugin does not know. */
  explainUnknown(reason: string): string;
}

/** The type from a URN (`urn:pulumi:stack::project::parent$type::name`), for requests that leave `type` empty. */
function typeOfUrn(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

/**
 * The kind a request is about. A program whose SDK is newer than this plugin can register a kind
 * or a property the plugin does not know: say so in one line naming both versions (the SDK's is
 * the `version` the engine passes in the provider's config, when it does) and what to do.
 */
export function kindFor(type: string, urn: string, version: string, requested: string | undefined): KindDispatch {
  const token = type || typeOfUrn(urn);
  const parsed = parseToken(token);
  const kind = parsed?.provider === "native" ? parsed.kind : undefined;
  const runtime = kind ? runtimes.get(kind) : undefined;
  const versions =
    requested && requested !== version
      ? `the voiceagent plugin is ${version}, the program's SDK is ${requested}`
      : `the voiceagent plugin is ${version}`;
  const fix =
    `install the plugin that matches the SDK (\`pulumi plugin install resource voiceagent <version> ` +
    `--file <plugin>\`, or point Pulumi.yaml plugins.providers at the installed package's dist/plugin)`;
  const problem = runtime
    ? ""
    : `${token} is not a resource this plugin serves (${versions}; it serves ${KIND_NAMES.join(", ")}): ${fix}`;
  return {
    runtime,
    problem,
    orThrow() {
      if (!runtime) throw new Refusal("E_UNKNOWN_KIND", `${problem}. Nothing was sent to the service.`);
      return runtime;
    },
    explainUnknown(reason) {
      return reason.startsWith("unknown property") && requested && requested !== version
        ? `${reason} (${versions}: ${fix})`
        : reason;
    },
  };
}
