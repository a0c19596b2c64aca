import type * as pulumi from "@pulumi/pulumi";
import type { ProviderSettings } from "./credentials.js";

/** The serialized provider: settings from configure, everything else loaded by package name. */
interface Shim extends pulumi.dynamic.ResourceProvider {
  settings?: ProviderSettings;
}

/**
 * The provider object Pulumi serializes into state for one kind. It captures nothing but `kind`:
 * each method imports the implementation by the package's own name (a relative import would
 * resolve against the provider process's working directory), so its text stays the same across
 * releases and an upgrade does not force every resource to be replaced.
 */
export function providerShim(kind: string): pulumi.dynamic.ResourceProvider {
  const shim: Shim = {
    async configure(req) {
      this.settings = {
        baseUrl: req.config.get("voiceagent:baseUrl"),
        token: req.config.get("voiceagent:token"),
      };
    },
    async check(olds, news) {
      const { runtimeFor } = await import("pulumi-voiceagent/providers");
      return runtimeFor(kind).check(olds, news);
    },
    async diff(id, olds, news) {
      const { runtimeFor } = await import("pulumi-voiceagent/providers");
      return runtimeFor(kind).diff(id, olds, news);
    },
    async create(inputs) {
      const { runtimeFor } = await import("pulumi-voiceagent/providers");
      return runtimeFor(kind).create(this.settings, inputs);
    },
    async read(id, props) {
      const { runtimeFor } = await import("pulumi-voiceagent/providers");
      return runtimeFor(kind).read(this.settings, id, props);
    },
    async update(id, olds, news) {
      const { runtimeFor } = await import("pulumi-voiceagent/providers");
      return runtimeFor(kind).update(this.settings, id, olds, news);
    },
    async delete(id, props) {
      const { runtimeFor } = await import("pulumi-voiceagent/providers");
      return runtimeFor(kind).delete(this.settings, id, props);
    },
  };
  return shim;
}
