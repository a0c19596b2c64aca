import * as pulumi from "@pulumi/pulumi";
import { assertTokenIsSecret } from "./kit/guard.js";
import { providerShim } from "./kit/shim.js";

/** One serialized provider per kind, shared by every resource of that kind in the program. */
const providers = new Map<string, pulumi.dynamic.ResourceProvider>();

/**
 * What every resource of this package does when the program declares it: refuse a token set as
 * plain config (before anything is registered), and register with its kind's provider under the
 * type `pulumi-nodejs:dynamic/voiceagent:<kind>`. `props` are the arguments plus a placeholder
 * (undefined) for each output that is not an argument.
 */
export abstract class VoiceAgentResource extends pulumi.dynamic.Resource {
  protected constructor(kind: string, name: string, props: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    assertTokenIsSecret();
    let provider = providers.get(kind);
    if (!provider) {
      provider = providerShim(kind);
      providers.set(kind, provider);
    }
    // Back from the native provider (pulumi-voiceagent/native) without replacing: the same kind there.
    super(provider, name, props, pulumi.mergeOptions({ aliases: [{ type: `voiceagent:index:${kind}` }] }, opts), "voiceagent", kind);
  }
}
