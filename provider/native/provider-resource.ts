import * as pulumi from "@pulumi/pulumi";
import type { ProviderArgs } from "../generated/provider-args.js";
import { PLUGIN_DOWNLOAD_URL, PLUGIN_VERSION } from "./version.js";

export type { ProviderArgs };

/**
 * A `voiceagent` provider with its own settings (`pulumi:providers:voiceagent`), for programs that
 * talk to two accounts, or staging and production, at once: pass it as `{ provider }` to the
 * native resources. Without one, resources use the default provider, configured by the stack's
 * `voiceagent:*` config. The token is made a secret whatever the program passes.
 * @example
 * const staging = new Provider("staging", { baseUrl: "https://staging.example.com", token: config.requireSecret("stagingToken") });
 * new Agent("support", { prompt: "You answer support calls.", voice: voiceId }, { provider: staging });
 */
export class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {
    const props = { ...args, token: args.token === undefined ? undefined : pulumi.secret(args.token) };
    super(
      "voiceagent",
      name,
      props,
      pulumi.mergeOptions({ version: PLUGIN_VERSION, pluginDownloadURL: PLUGIN_DOWNLOAD_URL }, opts),
    );
  }
}
