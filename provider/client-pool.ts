import type { ApiSetting, CreateLedger, ExtensionsSetting, VoiceAgentClient } from "./client/index.js";

// Types only: the host holds the pool from its start, in every process (the program's included,
// which loads no client until a lookup runs); the kit makes what it holds (kit/configuration.ts).

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
 * limiter and one answer about the service's generation and routes; one ledger per account.
 */
export class ClientPool {
  private readonly clients = new Map<string, VoiceAgentClient>();
  private readonly ledgers = new Map<string, CreateLedger>();

  /** The client of these settings: the one made before, else `make`'s. */
  clientOf(settings: ClientSettings, make: () => VoiceAgentClient): VoiceAgentClient {
    const key = JSON.stringify(settings);
    let client = this.clients.get(key);
    if (!client) {
      client = make();
      this.clients.set(key, client);
    }
    return client;
  }

  /** The create ledger of the account `token` names: the one made before, else `make`'s. */
  ledgerOf(token: string, make: () => CreateLedger): CreateLedger {
    let ledger = this.ledgers.get(token);
    if (!ledger) {
      ledger = make();
      this.ledgers.set(token, ledger);
    }
    return ledger;
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
}
