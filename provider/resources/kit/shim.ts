import type * as pulumi from "@pulumi/pulumi";
import type { ProviderSettings } from "./settings.js";
import type { DynamicRuntime } from "./dynamic.js";

/** The serialized provider: settings from configure, the runtime loaded once by package name. */
interface Shim extends pulumi.dynamic.ResourceProvider {
  settings?: ProviderSettings;
  runtime?: DynamicRuntime;
}

type Method = keyof DynamicRuntime;

/**
 * The provider object Pulumi serializes into state for one kind. It captures nothing but `kind`
 * and one dispatch function: the implementation is imported by the package's own name (a relative
 * import would resolve against the provider process's working directory). Its text is stored
 * twice per resource and rewritten with every checkpoint, so it is kept small. Every text ever
 * written (0.1.0's passed no `config`) must keep working: the runtime's methods are a stable
 * contract (see DynamicRuntime), and diff ignores the recorded provider text (kit/migration.ts), so
 * a new text never shows as a change.
 */
export function providerShim(kind: string): pulumi.dynamic.ResourceProvider {
  const call = async (self: Shim, method: Method, args: unknown[]): Promise<never> => {
    // Plain syntax only: @pulumi/pulumi before 3.2xx parses this text with TypeScript 3.8 (no `??=`).
    if (!self.runtime) self.runtime = (await import("pulumi-voiceagent/providers")).runtimeFor(kind);
    return (self.runtime[method] as (...a: unknown[]) => Promise<never>)(self.settings, ...args);
  };
  const shim: Shim = {
    async configure(req) {
      this.settings = {
        baseUrl: req.config.get("voiceagent:baseUrl"),
        token: req.config.get("voiceagent:token"),
        config: req.config,
      };
    },
    check(...a) {
      return call(this, "check", a);
    },
    diff(...a) {
      return call(this, "diff", a);
    },
    create(...a) {
      return call(this, "create", a);
    },
    read(...a) {
      return call(this, "read", a);
    },
    update(...a) {
      return call(this, "update", a);
    },
    delete(...a) {
      return call(this, "delete", a);
    },
  };
  return shim;
}
