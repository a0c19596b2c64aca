import type { Host } from "../host.js";
import { persistCompileCache } from "./compile-cache.js";
import { dispatched } from "./dispatch.js";
import { failingAsProvider } from "./failures.js";
import { fromDynamic } from "./from-dynamic.js";
import { PluginConfig } from "./plugin-config.js";
import { previewing } from "./preview.js";
import type { PlainProvider } from "./protocol.js";
import { schemaOutputs, type SchemaOutputs } from "./schema-outputs.js";
import { scoped } from "./scoped.js";
import type { Load } from "./scoped-protocol.js";

/** What the provider is built from: the plugin's version and the package schema. */
export interface PlainProviderOptions {
  version: string;
  schema: string;
}

/**
 * The native provider for every kind, through the kinds' runtimes only (kit/runtime.ts): the same
 * checks, diffs, exactly-once creates, claims and messages as the dynamic path. The protocol's
 * concerns wrap it, each in its own module, outermost first (as go-provider's middleware/ does):
 * failures as the engine reads them (failures.ts), one scope per request with its URN and its
 * timeout (scoped.ts), previews that send nothing (preview.ts), a stack migrated from the dynamic
 * provider (from-dynamic.ts), and dispatch by type token to the kind's runtime (dispatch.ts).
 */
export function plainProvider(opts: PlainProviderOptions, host: Host): PlainProvider {
  let loaded: ReturnType<Load> | undefined;
  /** What the plugin loads on first use, once (see lazy.ts). */
  const load: Load = () =>
    (loaded ??= import("./lazy.js").then((k) => {
      persistCompileCache();
      return k;
    }));
  const outputs = schemaOutputs(opts.schema);
  const none: SchemaOutputs = { decided: [], secrets: [] };
  const schemaOf = (type: string): SchemaOutputs => outputs.get(type) ?? none;
  const config = new PluginConfig(host, load);
  const kinds = dispatched({ load, version: opts.version, requested: () => config.requested(), schemaOf });
  const provider: PlainProvider = {
    getPluginInfo: () => ({ version: opts.version }),
    getSchema: () => opts.schema,
    checkConfig: config.checkConfig,
    diffConfig: config.diffConfig,
    configure: config.configure,
    ...scoped(previewing(fromDynamic(schemaOf)(kinds)), (urn, timeout) => config.scopeOf(urn, timeout)),
    cancel: async () => host.cancel(),
  };
  return failingAsProvider(provider, { host, load, secretsOf: (type) => schemaOf(type).secrets });
}
