// The Fleet the plugin constructs: the fleet as the native plugin's resources. The native entry's
// `Fleet` is the schema's component (generated/native-fleet.ts), whose Construct runs this.
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
import { FLEET_TOKEN, FleetBase, type FleetClasses } from "./component.js";
import type { FleetArgs } from "./spec.js";

const NATIVE_CLASSES: FleetClasses = {
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
};

/**
 * The Fleet the plugin serves (`voiceagent:index:Fleet`, plugin/construct.ts): the same children,
 * under the schema's token. Not exported by the package: programs get it from their SDK.
 */
export class ServedFleet extends FleetBase {
  constructor(name: string, args: FleetArgs, opts?: pulumi.ComponentResourceOptions) {
    super(NATIVE_CLASSES, name, args, opts, FLEET_TOKEN);
  }
}
