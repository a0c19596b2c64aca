import { ClientPool } from "./client-pool.js";
import { paceNote } from "./client/pace.js";
import { ClientStores, currentScope } from "./client/stores.js";
import { BoundOnce } from "./coordination/bound-once.js";
import { NumberClaims } from "./coordination/number-claims.js";
import { joinDeployment, joinFromDynamicHost, type SharedDeployment } from "./coordination/deployment.js";
import { findInvocation, type Invocation } from "./coordination/invocation.js";
import { SharedPace } from "./coordination/shared-pace.js";

/**
 * Receives one note for the user (one line, no trailing newline), with the URN of the resource it
 * is about ("" for none); a promise when it is sent somewhere (the engine's log) that the request
 * waits for before it answers.
 */
export type NoteSink = (text: string, urn: string) => unknown;

const toStderr: NoteSink = (text) => {
  process.stderr.write(`${text}\n`);
};

/** How a host is built at its edge. */
export interface HostOptions {
  /** Where notes go (the plugin: the engine's Log RPC); stderr by default (the dynamic host shows it). */
  notes?: NoteSink | undefined;
  /** How the `pulumi` invocation is found (tests); the process's ancestors by default. */
  invocation?: (() => Invocation | undefined) | undefined;
}

/**
 * Everything one provider process (or one test) keeps while it runs, in one object: built once at
 * each edge (the plugin's `main`, the dynamic provider host's `runtimeFor`, the CLI's `main`, the
 * program's resources and lookups in dynamic/program.ts) and passed down; no module below an edge
 * keeps mutable state of its own. Every request's scope names it (kit/scope.ts `RequestScope`),
 * down to the kinds' lifecycle (kit/kind.ts `LifecycleRequest`): nothing below an edge looks it up.
 * The scope also runs each request in it, for what the client finds rather than is passed: the
 * redaction set its errors use, the budget, where a pace note goes (client/stores.ts). Which
 * provider instance a value belongs to is the host it is in.
 */
export class Host extends ClientStores {
  /** One client per resolved settings (kit/configuration.ts), one create ledger per account. */
  readonly clients = new ClientPool();
  /** The notes already told once (kit/runtime.ts: a generation's note), each once per host, not once per resource. */
  readonly told = new ToldOnce();
  /** The numbers the program declares, by the kind of the resource declaring each (coordination/claims.ts). */
  readonly claims = new NumberClaims(
    () => this.joined,
    () => this.invocation(),
  );
  /** Who holds each bound-once value (coordination/bound-once.ts). */
  readonly bindings = new BoundOnce(() => this.joined);
  private sink: NoteSink;
  private readonly findInvocation: () => Invocation | undefined;
  private invocationRead: { value: Invocation | undefined } | undefined;
  private configChecked = false;
  private joined: SharedDeployment | undefined;

  constructor(options: HostOptions = {}) {
    super();
    this.sink = options.notes ?? toStderr;
    this.findInvocation = options.invocation ?? (() => findInvocation(process.ppid));
    // The client paces itself once the service has answered 429 (client/pace.ts): the user hears
    // when their requests wait on the service's rate limit, not only that the run was slow.
    // Told with the request it delays (the client scope's `tell`, set by kit/scope.ts) when there is one.
    this.pacers.onWait((event) => {
      const text = paceNote(event);
      const tell = currentScope()?.tell;
      if (tell) tell(text);
      else this.note(text);
    });
  }

  /** Tells the user something that did not fail but that they should know, about no resource in particular. */
  note(text: string): void {
    this.sink(text, "");
  }

  /** Sends a note about the resource `urn` names; a promise when it is sent somewhere to wait for. */
  tell(text: string, urn: string): Promise<unknown> | undefined {
    const sent = this.sink(text, urn);
    return sent instanceof Promise ? sent : undefined;
  }

  /** The invocation of the deployment this process serves (read once: it cannot change). */
  invocation(): Invocation | undefined {
    this.invocationRead ??= { value: this.findInvocation() };
    return this.invocationRead.value;
  }

  /** True the first time only: the program's config is checked once (kit/guard.ts). */
  firstConfigCheck(): boolean {
    if (this.configChecked) return false;
    this.configChecked = true;
    return true;
  }

  /** The deployment this host shares with its sibling processes, if it joined one. */
  get deployment(): SharedDeployment | undefined {
    return this.joined;
  }

  /**
   * Joins the deployment of the engine at `address` (a plugin's last argument): from now on this
   * host's declared numbers and create ledgers are the deployment's (coordination/deployment.ts).
   */
  join(address: string, at: Parameters<typeof joinDeployment>[1] = {}): SharedDeployment {
    this.joined?.leave();
    const joined = joinDeployment(address, {
      ...at,
      enginePid: at.enginePid ?? this.invocation()?.pid ?? process.ppid,
    });
    this.joined = joined;
    this.sharePace(joined);
    return joined;
  }

  /** Joins from the dynamic provider host, once, when this process is one (see `joinFromDynamicHost`). */
  joinAsDynamicHost(
    argv: readonly string[] = process.argv,
    at: Parameters<typeof joinFromDynamicHost>[1] = {},
  ): SharedDeployment | undefined {
    if (this.joined) return this.joined;
    this.joined = joinFromDynamicHost(argv, { found: () => this.invocation(), ...at });
    if (this.joined) this.sharePace(this.joined);
    return this.joined;
  }

  /**
   * Paces each token together with the deployment's other processes (coordination/shared-pace.ts):
   * the service limits the token, not the process. Unless VOICEAGENT_PACE_ALONE=1 (a comparison:
   * bench/, the test that shows what sharing saves).
   */
  private sharePace(deployment: SharedDeployment): void {
    if (process.env.VOICEAGENT_PACE_ALONE === "1") return;
    this.pacers.share((token) => new SharedPace(deployment, token));
  }

  /** Leaves the deployment (stops marking its folder as in use). */
  leave(): void {
    this.joined?.leave();
    this.joined = undefined;
  }
}

/** The notes a host told once: the only owner of that set. */
export class ToldOnce {
  private readonly told = new Set<string>();

  /** True the first time `text` is asked about: it is to be told now, and never again by this host. */
  first(text: string): boolean {
    if (this.told.has(text)) return false;
    this.told.add(text);
    return true;
  }
}
