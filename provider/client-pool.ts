import {
  createClient,
  MemoryLedger,
  type ApiSetting,
  type CreateLedger,
  type ExtensionsSetting,
  type VoiceAgentClient,
} from "./client/index.js";
import type { ClientStores } from "./client/stores.js";
import type { SharedDeployment } from "./coordination/deployment.js";
import { SharedLedger } from "./coordination/shared-ledger.js";

/** What a client is made from: the provider's settings once resolved (kit/configuration.ts). */
export interface ClientSettings {
  baseUrl: string;
  token: string;
  extensions: ExtensionsSetting;
  api: ApiSetting;
  /** The most time one operation may spend retrying, in ms; the client's default when unset. */
  budgetMs: number | undefined;
}

/**
 * The clients of one process, and the create ledger of each account they write to: the only owner
 * of both maps. One client per resolved settings, so every resource configured alike shares one
 * limiter and one answer about the service's generation and routes; one ledger per account (the
 * deployment's shared one once the process joined it: the engine runs a plugin process per
 * provider instance and one dynamic provider host, and several may serve one account).
 */
export class ClientPool {
  private readonly clients = new Map<string, VoiceAgentClient>();
  private readonly ledgers = new Map<string, CreateLedger>();

  /** `stores`: the host's, in which each client is made; `deployment`: the one it joined, if any, asked when a ledger is made. */
  constructor(
    private readonly stores: ClientStores,
    private readonly deployment: () => SharedDeployment | undefined,
  ) {}

  /** The client of these settings, made in the host's stores (its token's redaction and its pacer are the host's own). */
  clientOf(settings: ClientSettings): VoiceAgentClient {
    const key = JSON.stringify(settings);
    const known = this.clients.get(key);
    if (known) return known;
    const { baseUrl, token, extensions, api, budgetMs } = settings;
    const client = this.stores.run(() =>
      createClient({
        baseUrl,
        token,
        extensions,
        api,
        ledger: this.ledgerOf(token),
        ...(budgetMs ? { retry: { budgetMs } } : {}),
      }),
    );
    this.clients.set(key, client);
    return client;
  }

  /** How many clients this process made (one per resolved settings). */
  get size(): number {
    return this.clients.size;
  }

  /** The create ledger of the account `token` names, if this process made one. */
  ledger(token: string): CreateLedger | undefined {
    return this.ledgers.get(token);
  }

  /** The client these settings already have, if any, without making one. */
  existing(settings: ClientSettings): VoiceAgentClient | undefined {
    return this.clients.get(JSON.stringify(settings));
  }

  /** The create ledger of the account a token names: the deployment's shared one, else this process's own. */
  private ledgerOf(token: string): CreateLedger {
    let ledger = this.ledgers.get(token);
    if (!ledger) {
      const deployment = this.deployment();
      ledger = deployment ? new SharedLedger(deployment, token) : new MemoryLedger();
      this.ledgers.set(token, ledger);
    }
    return ledger;
  }
}
