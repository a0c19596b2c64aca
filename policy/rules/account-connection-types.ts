import { ACCOUNT_CONNECTION_TYPES } from "pulumi-voiceagent/schemas";
import { knownString } from "../resource-view.js";
import { resourceRule } from "../rule.js";

/** An account connection type the service knows. */
type AccountConnectionType = (typeof ACCOUNT_CONNECTION_TYPES)[number];

/** The rule's settings. */
export interface AccountConnectionTypesConfig {
  allowedTypes: AccountConnectionType[];
}

/**
 * Only the outside accounts the team means to connect (its own OpenAI key, its own Twilio account):
 * a connection hands the service a vendor's credentials. Not configured, any type passes. A
 * connection's type is required, so an unset one is the provider's to refuse.
 */
export const accountConnectionTypes = resourceRule<AccountConnectionTypesConfig>({
  name: "voiceagent-account-connection-types",
  kind: "AccountConnection",
  description: "An AccountConnection's type must be one that allowedTypes lists.",
  enforcementLevel: "mandatory",
  config: {
    allowedTypes: {
      type: "array",
      items: { type: "string", enum: [...ACCOUNT_CONNECTION_TYPES] },
      description: "Account connection types (account_connection_openai, account_connection_twilio); unset: any.",
    },
  },
  check: ({ props }, { allowedTypes }) => {
    const type = knownString(props, "type");
    if (!allowedTypes || type === undefined) return [];
    return allowedTypes.some((t) => t === type)
      ? []
      : [`type ${type} is not one of allowedTypes (${allowedTypes.join(", ") || "none"})`];
  },
});
