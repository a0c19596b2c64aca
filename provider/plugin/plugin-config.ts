import type { Host } from "../host.js";
import type { Configuration } from "../resources/kit/configuration.js";
import type { RequestScope } from "../resources/kit/scope.js";
import { configDiff } from "./detailed-diff.js";
import type { PlainProvider } from "./protocol.js";
import type { Load } from "./scoped-protocol.js";

/** The resource's customTimeouts for this request (the engine's `timeout`, in seconds) as a budget in ms; unset when none was given. */
const budgetOf = (timeout: number | undefined): number | undefined =>
  timeout && timeout > 0 ? Math.ceil(timeout * 1000) : undefined;

/**
 * The provider's own config, as the engine checks, diffs and hands it (CheckConfig, DiffConfig,
 * Configure), and what it makes: the settings resolved once at Configure into the configuration
 * every request's scope is handed, and the SDK's version the resources were registered with.
 */
export class PluginConfig implements Pick<PlainProvider, "checkConfig" | "diffConfig" | "configure"> {
  /** The settings resolved at Configure (before it: the environment's alone, resolved at the first request). */
  private configuration: Configuration | undefined;
  /** The SDK's version, when the engine says (plugin/config.ts `requestedVersion`). */
  private requestedVersion: string | undefined;

  constructor(
    private readonly host: Host,
    private readonly load: Load,
  ) {}

  /** The version of the SDK that registered the resources, when the engine said. */
  requested(): string | undefined {
    return this.requestedVersion;
  }

  /** One request's scope: this provider's configuration, the request's URN and its customTimeouts (kit/scope.ts). */
  async scopeOf(urn: string, timeout?: number): Promise<RequestScope> {
    const { Configuration, RequestScope } = await this.load();
    this.configuration ??= new Configuration(this.host, undefined);
    return new RequestScope(this.configuration, { urn, budgetMs: budgetOf(timeout) });
  }

  readonly checkConfig: PlainProvider["checkConfig"] = async (req) => {
    const { configFailures, requestedVersion } = await this.load();
    this.requestedVersion = requestedVersion(req.news) ?? this.requestedVersion;
    return { inputs: req.news, failures: configFailures(req.news) };
  };

  readonly diffConfig: PlainProvider["diffConfig"] = async (req) => {
    const olds = req.oldInputs ?? req.olds;
    return configDiff(olds, req.news, (await this.load()).changedSettings(olds, req.news));
  };

  readonly configure: PlainProvider["configure"] = async (req) => {
    const { requestedVersion, settingsOf, PLAIN_TOKEN, containsUnknown, Refusal, Configuration } = await this.load();
    // Only here does the engine show whether the token was a secret: a plain one would be
    // recorded unencrypted among the provider's inputs in the state, so it is refused before
    // anything is sent (the dynamic path refuses it in the program).
    const token = req.config.token;
    if (req.plainKeys?.includes("token") && typeof token === "string" && !containsUnknown(token))
      throw new Refusal("E_PLAIN_TOKEN", `${PLAIN_TOKEN}; nothing was sent to the service`);
    this.requestedVersion = requestedVersion(req.config) ?? this.requestedVersion;
    // Resolved once, here: every request of this provider instance is handed this configuration.
    this.configuration = new Configuration(this.host, settingsOf(req.config));
  };
}
