import { AsyncLocalStorage } from "node:async_hooks";
import { type PaceListener, type Pacer, Pacers } from "./pace.js";
import type { PacedTime } from "./paced-time.js";

/**
 * What the client keeps for the process it runs in, held by one host object instead of module
 * variables: the secrets no message may hold, and each account's pacer. A provider process builds
 * its host (provider/host.ts, which extends this) at its edge (the plugin's main, the dynamic
 * provider host, the CLI, the program) and runs its work in it; two hosts in one process (tests,
 * two provider instances) share neither.
 */
export class ClientStores {
  /** The secrets no error or message of this host may hold (the token, secret inputs). */
  readonly redaction = new Redaction();
  /** The pacer of each account and service this host talks to. */
  readonly pacers = new Pacers();
  /** Aborted once `cancel` was called; handed to each request. */
  readonly cancelled: AbortSignal;
  /**
   * What the engine's Cancel asks (plugin/grpc.ts): no request of this host's clients is sent from
   * now on, those in flight are aborted, and each fails saying whether it may have been carried
   * out (client/transport.ts). For the rest of the process: the engine exits after a cancel.
   */
  readonly cancel: () => void;

  constructor() {
    const stopping = new AbortController();
    this.cancelled = stopping.signal;
    this.cancel = () => stopping.abort();
  }

  /**
   * Runs `work` with this host as the current one (what `redact`, `registerSecret` and new clients
   * use), keeping the budget and the notes' channel of the work it is called in.
   */
  run<T>(work: () => T): T {
    return current.run({ ...current.getStore(), stores: this }, work);
  }
}

const REDACTED = "[REDACTED]";

/**
 * The secrets (API tokens, secret inputs) that no error or message of one host may contain: each
 * host holds its own, so what one provider instance registers is its own.
 */
export class Redaction {
  private readonly secrets = new Set<string>();

  /** Registers a secret that no ApiError may ever contain. */
  add(secret: string): void {
    if (secret.length >= 4) this.secrets.add(secret);
  }

  /** Replaces every registered secret in `text`. */
  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) out = out.split(s).join(REDACTED);
    return out;
  }
}

/**
 * What the client finds of the work it runs in rather than being passed it: its public calls take
 * no such argument (`client.agents.create(body)`), and an error redacts its message as it is built,
 * deep below them. The provider's request scope (kit/scope.ts) passes everything else explicitly
 * and enters this once per request; `withBudget` (client/budget.ts) and `ClientStores.run` too.
 */
export interface ClientScope {
  /** The host's stores: its redaction set, its pacers, its cancel. */
  readonly stores: ClientStores;
  /** The one operation's time budget (client/budget.ts), when its caller set one. */
  readonly budget?: { readonly budgetMs: number; deadline?: number } | undefined;
  /** Where a note made while this work waits (a pace note) goes: the request's own notes, with its URN. */
  readonly tell?: ((text: string) => void) | undefined;
  /** The time the operation's requests have waited for their turns under a learned limit (client/budget.ts). */
  readonly paced?: PacedTime | undefined;
}

/**
 * The one async-context store of the package: the client scope the current work runs in. A
 * constant: it holds no value itself; each async call chain started by `runInScope` sees its own.
 */
const current = new AsyncLocalStorage<ClientScope>();

/** Runs `work` in `scope` (the request scope's, or a budget's). */
export function runInScope<T>(scope: ClientScope, work: () => T): T {
  return current.run(scope, work);
}

/** The client scope the current work runs in, if any. */
export function currentScope(): ClientScope | undefined {
  return current.getStore();
}

/**
 * The stores of a client made outside any host: a program that uses `pulumi-voiceagent/client`
 * directly is its own edge, and its clients share these (the public `registerSecret`, `redact`,
 * `onPaceWait` and `pacerFor` act on them there). Frozen: the binding never changes; only the
 * stores' contents do, as a host's would.
 */
const STANDALONE: ClientStores = Object.freeze(new ClientStores());

/** The stores of the host the current work runs in, or the standalone client's. */
export function currentStores(): ClientStores {
  return current.getStore()?.stores ?? STANDALONE;
}

/** Registers a secret (the API token) that no ApiError of the current host may ever contain. */
export function registerSecret(secret: string): void {
  currentStores().redaction.add(secret);
}

/** Replaces every secret registered in the current host in `text`. */
export function redact(text: string): string {
  return currentStores().redaction.redact(text);
}

/**
 * Calls `listener` when a request of the current host waits on a learned rate limit (at most once
 * per 10 s per token), in the async context of that request. Returns a function that removes it.
 */
export function onPaceWait(listener: PaceListener): () => void {
  return currentStores().pacers.onWait(listener);
}

/** The pacer of `token` at `baseUrl` in the current host. */
export function pacerFor(baseUrl: string, token: string): Pacer {
  return currentStores().pacers.for(baseUrl, token);
}
