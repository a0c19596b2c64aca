// What both entries export of the fleet besides their own `Fleet` class.
import type { FleetCheck } from "./check.js";
import { loadCheck } from "./load-check.js";

export { fleetFromConfig } from "./config.js";
export { FleetConfigError } from "./error.js";
export type { FleetCheck } from "./check.js";
export type { FleetIds } from "./component.js";
export type {
  FleetAccountConnection,
  FleetAction,
  FleetAgent,
  FleetArgs,
  FleetEntry,
  FleetLine,
  FleetPrompt,
  FleetPurchase,
  FleetSpec,
  FleetVectorDatabase,
  FleetVoice,
  FleetWebhook,
} from "./spec.js";

/**
 * Checks a fleet value (a stack file's `fleet`, or one a program builds) without deploying it: its
 * shape, unknown keys, references by name, duplicates; every problem at once, each naming its path.
 * @example
 * const r = checkFleet({ agents: { support: { prompt: "Hi", voice: "warm2" } } });
 * if (!r.ok) console.log(r.problems.join("\n"));
 */
export function checkFleet(value: unknown, source = "fleet"): FleetCheck {
  return loadCheck().checkFleet(value, source);
}
