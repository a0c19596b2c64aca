import { knownString } from "../resource-view.js";
import { resourceRule } from "../rule.js";

/**
 * Events (call transcripts among them) only over TLS. The provider already refuses what is not
 * an http(s) URL and credentials in it; plain http is what it lets through and this refuses.
 */
export const webhookHttps = resourceRule<Record<string, never>>({
  name: "voiceagent-webhook-https",
  kind: "Webhook",
  description: "A Webhook's url must use https.",
  enforcementLevel: "mandatory",
  check: ({ props }) => {
    const url = knownString(props, "url");
    return url === undefined || url.toLowerCase().startsWith("https://") ? [] : ["url does not use https"];
  },
});
