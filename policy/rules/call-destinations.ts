import { DESTINATION_PATTERN, isAllowedDestination } from "pulumi-voiceagent/schemas";
import { knownString } from "../resource-view.js";
import { resourceRule } from "../rule.js";

/** The rule's settings. */
export interface CallDestinationsConfig {
  /** Numbers, or prefixes ending in `*`, that calls may dial (the syntax of a Call's allowedDestinations). */
  allowedNumbers: string[];
}

/** Outbound calls only to the team's numbers: not configured, it lets every number through. */
export const callDestinations = resourceRule<CallDestinationsConfig>({
  name: "voiceagent-call-destinations",
  kind: "Call",
  description: "A Call may dial only a number that allowedNumbers lists (E.164 numbers, or prefixes ending in *).",
  enforcementLevel: "mandatory",
  config: {
    allowedNumbers: {
      type: "array",
      items: { type: "string", pattern: DESTINATION_PATTERN.source },
      description: 'E.164 numbers or prefixes ending in * ("+1555*"); unset: any number.',
    },
  },
  check: ({ props }, { allowedNumbers }) => {
    const to = knownString(props, "toNumber");
    if (!allowedNumbers || to === undefined || isAllowedDestination(to, allowedNumbers)) return [];
    // The number itself is personal data: the message names the field and the list only.
    return [`toNumber is not one of allowedNumbers (${allowedNumbers.join(", ") || "none"})`];
  },
});
