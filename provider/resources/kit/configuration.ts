import { createClient, MemoryLedger, type VoiceAgentClient } from "../../client/index.js";
import { SharedLedger } from "../../coordination/shared-ledger.js";
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
   * The client of these settings: one per resolved settings in the host (client-pool.ts), so every
   * resource shares one limiter and one answer about the service; made in the host (`host.run`), so
   * its token's redaction and its pacer are the host's own. Fails with every problem of the
   * settings when they are not usable.
   */
  client(): VoiceAgentClient {
    const { resolved, host } = this;
    if (!resolved) throw new Refusal("E_SETTINGS", this.problems.map((p) => p.reason).join("; "));
    const { baseUrl, token, extensions, api, budgetMs } = resolved;
    return host.clients.clientOf(resolved, () =>
      host.run(() =>
        createClient({
          baseUrl,
          token,
          extensions,
          api,
          ledger: host.clients.ledgerOf(token, () => this.ledger(token)),
          ...(budgetMs ? { retry: { budgetMs } } : {}),
        }),
      ),
    );
  }

  /**
   * A new create ledger for the account a token names: the deployment's shared one in a process
   * that joined its deployment (the engine runs a plugin process per provider instance and one
   * dynamic host, and several may serve one account), else one of this process's own (tests, and
   * platforms where the engine cannot be found).
   */
  private ledger(token: string) {
    const { deployment } = this.host;
    return deployment ? new SharedLedger(deployment, token) : new MemoryLedger();
  }

  /** The client these settings already have, if any: for what concerns only a client that exists, without making one. */
  existingClient(): VoiceAgentClient | undefined {
    if (this.unknown || !this.resolved) return undefined;
    return this.host.clients.existing(this.resolved);
  }
}
