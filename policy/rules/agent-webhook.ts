import { fieldOf } from "../resource-view.js";
import { resourceRule } from "../rule.js";

/** Every agent reports its calls' events somewhere the team sees them. */
export const agentWebhook = resourceRule<Record<string, never>>({
  name: "voiceagent-agent-webhook",
  kind: "Agent",
  description: "An Agent must report its events to a webhook (its webhook property).",
  enforcementLevel: "mandatory",
  check: ({ props }) =>
    fieldOf(props, "webhook").state === "unset" ? ["webhook is not set: give it a Webhook's id"] : [],
});
