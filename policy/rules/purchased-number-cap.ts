import type { StackValidationPolicy } from "@pulumi/policy";
import { kindOf } from "../resource-view.js";
import { settingsOf } from "../settings.js";

/** The rule's settings. */
export interface PurchasedNumberCapConfig {
  maxPurchasedNumbers: number;
}

/** A handful per stack: a loop or a copied block that buys dozens of numbers is caught at preview. */
export const PURCHASED_NUMBER_CAP_DEFAULT = 5;

const NAME = "voiceagent-purchased-number-cap";

const SETTINGS = {
  maxPurchasedNumbers: {
    type: "integer",
    minimum: 0,
    default: PURCHASED_NUMBER_CAP_DEFAULT,
    description: "PurchasedNumbers one stack may declare, at most.",
  },
} as const;

/** A stack buys at most maxPurchasedNumbers numbers (each is billed every month). */
export const purchasedNumberCap: StackValidationPolicy = {
  name: NAME,
  description: "A stack may declare at most maxPurchasedNumbers PurchasedNumbers (each is billed every month).",
  enforcementLevel: "mandatory",
  configSchema: { properties: SETTINGS },
  validateStack: (args, reportViolation) => {
    const max =
      settingsOf(NAME, SETTINGS, args.getConfig<Partial<PurchasedNumberCapConfig>>()).maxPurchasedNumbers ??
      PURCHASED_NUMBER_CAP_DEFAULT;
    const numbers = args.resources.filter((r) => kindOf(r.type) === "PurchasedNumber").map((r) => `'${r.name}'`);
    if (numbers.length > max)
      reportViolation(
        `the stack declares ${numbers.length} PurchasedNumbers (${numbers.join(", ")}), over maxPurchasedNumbers ${max} (policy ${NAME})`,
      );
  },
};
