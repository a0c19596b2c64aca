import type { VoiceAgentClient } from "../../client/index.js";
import { PacedTime } from "../../client/paced-time.js";
import { runInScope } from "../../client/stores.js";
import type { Host } from "../../host.js";
import { Configuration } from "./configuration.js";
import type { ProviderSettings } from "./settings.js";

/** What a request adds to its configuration: whom it is about and how long it may take. */
export interface ScopeOptions {
  /** The URN of the resource the request is about ("" when the caller is not told: the dynamic provider). */
  urn?: string | undefined;
  /** The resource's customTimeouts for this operation, in ms; the settings' operationTimeout when unset. */
  budgetMs?: number | undefined;
}

/**
 * Everything one provider request runs with, in one object handed down explicitly from the edge
 * that received the request (the plain provider, plugin/plain-provider.ts; the dynamic adapter,
 * dynamic/adapter.ts) to the kinds' lifecycle, as pulumi-go-provider hands one `ctx` with each
 * request: the process's host, the configured client, the URN, the budget, and the notes sink that
 * tells each note with the URN. Named a scope, not a context: "context" is Pulumi's (a program's
 * `pulumi.runtime`, go-provider's `ctx`) and Node's (async context).
 *
 * The client library cannot be handed it (its public calls take no such argument), so `run` enters
 * the one client scope it finds (client/stores.ts): the host's redaction set, the budget, and where
 * a note the client makes while waiting (a pace note) goes.
 */
export class RequestScope {
  readonly urn: string;
  readonly budgetMs: number | undefined;
  /** The notes sent and still in flight, which the request waits for before it answers. */
  private readonly pending: Promise<unknown>[] = [];

  constructor(
    /** The provider's settings, resolved once at its configure, and the host they belong to. */
    readonly configuration: Configuration,
    options: ScopeOptions = {},
  ) {
    this.urn = options.urn ?? "";
    this.budgetMs = options.budgetMs !== undefined && options.budgetMs > 0 ? options.budgetMs : undefined;
  }

  /** A scope of settings not configured elsewhere (a test, a program's lookup): resolved here, once. */
  static of(host: Host, settings: ProviderSettings | undefined, options: ScopeOptions = {}): RequestScope {
    return new RequestScope(new Configuration(host, settings), options);
  }

  /** The process's host: its clients, claims, bindings and notes. */
  get host(): Host {
    return this.configuration.host;
  }

  /** The client of the provider's settings; a refusal naming every problem when they are not usable. */
  client(): VoiceAgentClient {
    return this.configuration.client();
  }

  /**
   * Tells the user something that did not fail but that they should know, under this request's
   * resource; the request answers only once it is sent (so it shows before the step completes and
   * is never lost to the process exiting).
   */
  note(text: string): void {
    const sent = this.host.tell(text, this.urn);
    if (sent) this.pending.push(sent);
  }

  /** Runs the request's work in this scope, and waits for every note it sent. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const budget = this.budgetMs === undefined ? undefined : { budgetMs: this.budgetMs };
    try {
      const paced = new PacedTime();
      return await runInScope({ stores: this.host, budget, tell: (text) => this.note(text), paced }, work);
    } finally {
      await Promise.all(this.pending);
    }
  }
}
