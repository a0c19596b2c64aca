// What both entries export of the fleet besides their own `Fleet` class.
export { fleetFromConfig } from "./config.js";
export { checkFleet, FleetConfigError, type FleetCheck } from "./check.js";
export type { FleetIds } from "./component.js";
export type { FleetAction, FleetAgent, FleetArgs, FleetEntry, FleetLine, FleetPurchase, FleetSpec, FleetVoice, FleetWebhook } from "./spec.js";
