// The Fleet of the package's root entry: the fleet as dynamic-provider resources.
import type * as pulumi from "@pulumi/pulumi";
import {
  AccountConnection,
  Action,
  Agent,
  LinkedNumber,
  PhoneNumber,
  Prompt,
  PurchasedNumber,
  VectorDatabase,
  Voice,
  Webhook,
} from "../generated/dynamic/index.js";
import { FleetBase } from "./component.js";
import type { FleetArgs } from "./spec.js";

/**
 * A fleet of voices, actions, webhooks, prompts, vector databases, account connections, agents and lines declared as data (usually a stack file's
 * `fleet` value, read by `fleetFromConfig`), as resources named `<name>-<key>`.
 * @example
 * const fleet = new Fleet("fleet", fleetFromConfig());
 * export const ids = fleet.ids;
 */
export class Fleet extends FleetBase {
  constructor(name: string, args: FleetArgs, opts?: pulumi.ComponentResourceOptions) {
    super(
      {
        Voice,
        Action,
        Webhook,
        Agent,
        PhoneNumber,
        PurchasedNumber,
        LinkedNumber,
        Prompt,
        VectorDatabase,
        AccountConnection,
      },
      name,
      args,
      opts,
    );
  }
}
