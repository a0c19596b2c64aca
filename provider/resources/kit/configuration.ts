import type { VoiceAgentClient } from "../../client/index.js";
import type { ClientSettings } from "../../client-pool.js";
import type { Host } from "../../host.js";
import type { CheckFailure } from "./check.js";
import { Refusal } from "./refusal.js";
import { resolveSettings, settingsUnknown, type ProviderSettings } from "./settings.js";

/**
 * The provider's settings, resolved once where the engine configures it (the plugin's Configure;
 * the dynamic provider's `configure`, once per shim and process), with the host whose client they
 * make. Every request of that provider instance is handed this one object through its scope
 * (kit/scope.ts): nothing resolves the settings again per request.
 */
export class Configuration {
  /** The settings as given; undefined before Configure, or from a shim that passes none. */
  readonly settings: ProviderSettings | undefined;
  /** True when a setting is not known yet (a preview of a provider configured from outputs): see `settingsUnknown`. */
  readonly unknown: boolean;
  /** Every problem of the settings, each naming the setting and what fixes it; empty when usable. */
  readonly problems: readonly CheckFailure[];
  /** The settings a client is made from; undefined when they are not usable. */
  readonly resolved: ClientSettings | undefined;

  constructor(
    /** The process's host: its clients, ledgers, claims and notes. */
    readonly host: Host,
    settings: ProviderSettings | undefined,
  ) {
    this.settings = settings;
    this.unknown = settingsUnknown(settings);
    const { resolved, problems } = resolveSettings(settings);
    this.resolved = resolved;
    this.problems = problems;
  }

  /**
   * The client of these settings, one per resolved settings in the host (kit/../client-pool.ts).
   * Fails with every problem of the settings when they are not usable.
   */
  client(): VoiceAgentClient {
    if (!this.resolved) throw new Refusal("E_SETTINGS", this.problems.map((p) => p.reason).join("; "));
    return this.host.clients.clientOf(this.resolved);
  }

  /** The client these settings already have, if any: for what concerns only a client that exists, without making one. */
  existingClient(): VoiceAgentClient | undefined {
    if (this.unknown || !this.resolved) return undefined;
    return this.host.clients.existing(this.resolved);
  }
}
