// The Fleet of `pulumi-voiceagent/native`: the fleet as the native plugin's resources.
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
} from "../generated/native.js";
import { FleetBase } from "./component.js";
import type { FleetArgs } from "./spec.js";

/**
 * A fleet of voices, actions, webhooks, prompts, vector databases, account connections, agents and lines declared as data (usually a stack file's
 * `fleet` value, read by `fleetFromConfig`), as native resources named `<name>-<key>`.
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
