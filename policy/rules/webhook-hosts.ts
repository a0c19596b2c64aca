import { knownString } from "../resource-view.js";
import { resourceRule } from "../rule.js";

/** The rule's settings. */
export interface WebhookHostsConfig {
  /** Host names, or `*.` followed by a domain for any host under it. */
  allowedHosts: string[];
}

/** Host names: a name, or `*.` and a domain (any host below it, not the domain itself). */
const HOST_PATTERN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** The `allowedHosts` setting of a rule on the hosts the service calls out to (webhooks, external actions). */
export const ALLOWED_HOSTS = {
  type: "array",
  items: { type: "string", pattern: HOST_PATTERN.source },
  description: 'Host names, or "*.example.com" for any host under example.com; unset: any host.',
} as const;

/** True when `host` is one of `allowed` or below one of its `*.domain` entries. */
export function isAllowedHost(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return allowed.some((a) => {
    const entry = a.toLowerCase();
    return entry.startsWith("*.") ? h.endsWith(entry.slice(1)) : h === entry;
  });
}

/** Events only to the team's hosts: not configured, it lets every host through. */
export const webhookHosts = resourceRule<WebhookHostsConfig>({
  name: "voiceagent-webhook-hosts",
  kind: "Webhook",
  description: "A Webhook's url must point at a host that allowedHosts lists.",
  enforcementLevel: "mandatory",
  config: { allowedHosts: ALLOWED_HOSTS },
  check: ({ props }, { allowedHosts }) => {
    const url = knownString(props, "url");
    if (!allowedHosts || url === undefined) return [];
    // An unparsable URL is the provider's to refuse (it names the field); the URL may carry a
    // secret in its path or query, so the message names the field and the list only.
    const host = URL.canParse(url) ? new URL(url).hostname : undefined;
    return host === undefined || isAllowedHost(host, allowedHosts)
      ? []
      : [`url's host is not one of allowedHosts (${allowedHosts.join(", ") || "none"})`];
  },
});
