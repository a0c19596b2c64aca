import { resourceRule } from "../rule.js";

/** A bought number must carry `protect`: deleting a PurchasedNumber cancels the number. */
export const protectedPurchasedNumbers = resourceRule<Record<string, never>>({
  name: "voiceagent-protected-purchased-numbers",
  kind: "PurchasedNumber",
  description:
    "A PurchasedNumber must have the protect resource option: destroying one cancels the number, which may not be bought back.",
  enforcementLevel: "mandatory",
  check: ({ opts }) =>
    opts.protect ? [] : ["protect is not set: set the protect resource option (a destroy would cancel the number)"],
});
