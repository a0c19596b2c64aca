/**
 * What the serialized provider shims load, by package name, in the provider process:
 * `import("pulumi-voiceagent/providers")`. Its `dispatchFor(kind, config)` (shims written after 0.4.0),
 * `runtimeFor(kind)` (0.1.0–0.4.0) and the runtime's method signatures are a stable contract with
 * every shim ever written into a stack's state.
 */
import { Host } from "../host.js";
import { Configuration } from "../resources/kit/configuration.js";
import { configuredRuntime, dynamicRuntime, type DynamicRuntime } from "./adapter.js";
import type { Props } from "../resources/kit/kind.js";
import type { KindRuntime } from "../resources/kit/runtime.js";
import type { ProviderSettings } from "../resources/kit/settings.js";
import { KINDS as REGISTRY } from "../resources/kinds/index.js";
import { Refusal } from "../resources/kit/refusal.js";

export { KIND_NAMES } from "../resources/kinds/index.js";

const runtimes = new Map<string, KindRuntime>(REGISTRY.map((k) => [k.kind, k.runtime]));
const createBodies = new Map<string, (inputs: Props) => Props | undefined>(
  REGISTRY.map((k) => [k.kind, (inputs) => k.createBody(inputs)]),
);

// The dynamic provider host process's one host (provider/host.ts): this module is its edge.
const DYNAMIC_HOST = new Host();

/** The runtime of one resource kind ("Agent", "Voice", ...), as the dynamic provider calls it, in `host`. */
export function runtimeFor(kind: string, host: Host = DYNAMIC_HOST): DynamicRuntime {
  return dynamicRuntime(kindRuntimeIn(kind, host), host);
}

/** `kind`'s runtime, once `host` joined its deployment. */
function kindRuntimeIn(kind: string, host: Host): KindRuntime {
  // A shim loads its runtime before its first call: the dynamic host joins its deployment here,
  // before any declaration is recorded or any ledger made (coordination/deployment.ts).
  host.joinAsDynamicHost();
  const rt = runtimes.get(kind);
  if (!rt)
    throw new Refusal(
      "E_UNKNOWN_KIND",
      `pulumi-voiceagent: no provider for kind ${kind}; is the installed package older than the program?`,
    );
  return rt;
}

/**
 * The body a create of `kind` sends for these recorded inputs (the kit's own derivation), or
 * undefined when the inputs do not parse. `voiceagent recover` matches it against the account to
 * find what an interrupted `up` made.
 */
export function createBodyFor(kind: string, inputs: Props): Props | undefined {
  return createBodies.get(kind)?.(inputs);
}

/** What a shim's method forwards: the method's name and the dynamic host's arguments. */
export type Dispatch = (method: string, args: unknown[]) => Promise<unknown>;

/**
 * What a shim written after 0.4.0 calls its methods through (dynamic/shim.ts): `kind`'s runtime in this
 * process's host, configured here, at the shim's `configure` (once per shim and process): the
 * settings of the stack's config are resolved once, not per request, nor in the shim's own text
 * (which every resource's state holds twice).
 */
export function dispatchFor(kind: string, config: ProviderSettings["config"], host: Host = DYNAMIC_HOST): Dispatch {
  const settings: ProviderSettings = {
    baseUrl: config?.get("voiceagent:baseUrl"),
    token: config?.get("voiceagent:token"),
    config,
  };
  const runtime = configuredRuntime(kindRuntimeIn(kind, host), new Configuration(host, settings));
  return async (method, args) => {
    if (!isMethod(method)) throw new Error(`pulumi-voiceagent: the dynamic provider has no method ${method}`);
    return Reflect.apply(runtime[method], runtime, args);
  };
}

function isMethod(name: string): name is keyof DynamicRuntime {
  return ["check", "diff", "create", "read", "update", "delete"].includes(name);
}
