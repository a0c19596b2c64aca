// The fleet's shape as plain TypeScript, for the public declarations: a user's type-check never
// descends into zod (test/consumer/public-types.test.ts). Each entry section's type is generated from
// its kind (`npm run gen` writes provider/generated/fleet-spec.ts), as the zod schema that validates a
// value (./schema.ts) is derived from it; a line, which makes one of three kinds, is declared here.
import type {
  FleetAccountConnection,
  FleetAction,
  FleetAgent,
  FleetPrompt,
  FleetVectorDatabase,
  FleetVoice,
  FleetWebhook,
} from "../generated/fleet-spec.js";

export type {
  FleetAccountConnection,
  FleetAction,
  FleetAgent,
  FleetEntry,
  FleetPrompt,
  FleetVectorDatabase,
  FleetVoice,
  FleetWebhook,
} from "../generated/fleet-spec.js";

/** A number to buy for a line. */
export interface FleetPurchase {
  /** Buy in this 3-digit area code (unset: any area). */
  areaCode?: string;
}

/** A number of the team's own Twilio account, linked to the service (current API only). */
export interface FleetLink {
  /** A key of `accountConnections`, or the UUID of the Twilio account connection whose account owns the number. */
  connection: string;
  /** The number only places calls. */
  outboundOnly?: boolean;
}

/**
 * A line: a number bound to an agent, either one the account owns (`number`), one of the team's
 * Twilio account to link (`number` and `link`), or one to buy (`buy`). A linked number may have
 * no agent: one that only places calls (`link.outboundOnly`), or one linked for later.
 */
export interface FleetLine {
  /** A key of `agents`, or an existing agent's UUID: who answers. Required unless the line has `link`; refused with `link.outboundOnly: true`. */
  agent?: string;
  /** A number the account owns, or with `link` one of the team's Twilio account, E.164 (quote it in YAML: "+15551234567"). */
  number?: string;
  /** Link `number` from the team's Twilio account (a LinkedNumber); destroying the line leaves it linked. */
  link?: FleetLink;
  /** Buy a number for this line instead; destroying the line then cancels it, so it is protected unless `protect: false`. */
  buy?: FleetPurchase;
  /** For a bought number: false lets `destroy` cancel it (default true: protected). */
  protect?: boolean;
  /** Keys this line had before a rename. */
  was?: string[];
}

/** The fleet: each kind keyed by a name that becomes the resource's name. */
export interface FleetSpec {
  /** Voices by name. */
  voices?: Record<string, FleetVoice>;
  /** Actions by name. */
  actions?: Record<string, FleetAction>;
  /** Webhooks by name. */
  webhooks?: Record<string, FleetWebhook>;
  /** Prompt objects by name (the current API). */
  prompts?: Record<string, FleetPrompt>;
  /** Vector databases by name (the current API). */
  vectorDatabases?: Record<string, FleetVectorDatabase>;
  /** Account connections by name (the current API). */
  accountConnections?: Record<string, FleetAccountConnection>;
  /** Agents by name. */
  agents?: Record<string, FleetAgent>;
  /** Lines (number bindings) by name. */
  lines?: Record<string, FleetLine>;
}

/** What a `Fleet` is made from. */
export interface FleetArgs {
  /** The fleet, as validated by `checkFleet` or `fleetFromConfig`. */
  fleet: FleetSpec;
  /**
   * Store every value of the fleet as a secret. `fleetFromConfig` sets it when the config value holds
   * any secret: Pulumi tells a program only that the whole value is secret, not which paths.
   */
  secret?: boolean;
  /** How errors name the value: the config key, `fleet` by default. */
  source?: string;
}
