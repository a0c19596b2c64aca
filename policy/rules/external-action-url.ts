import { fieldOf, knownString } from "../resource-view.js";
import { resourceRule } from "../rule.js";
import { ALLOWED_HOSTS, isAllowedHost } from "./webhook-hosts.js";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The rule's settings. */
export interface ExternalActionUrlConfig {
  /** Host names, or `*.` followed by a domain for any host under it. */
  allowedHosts?: string[];
}

/**
 * What an external action sends (what the caller said, as the model fills its input schema) goes
 * only over TLS, and, when configured, only to the team's hosts: the webhook rules' two checks,
 * for the other place the service calls out to during a call. Only `action_external` has a URL.
 */
export const externalActionUrl = resourceRule<ExternalActionUrlConfig>({
  name: "voiceagent-external-action-url",
  kind: "Action",
  description: "An external Action's config.url must use https, on a host that allowedHosts lists when set.",
  enforcementLevel: "mandatory",
  config: { allowedHosts: ALLOWED_HOSTS },
  check: ({ props }, { allowedHosts }) => {
    if (knownString(props, "type") !== "action_external") return [];
    const config = fieldOf(props, "config");
    if (config.state !== "known" || !isRecord(config.value)) return [];
    // A preview's unknown url (computed from another resource) is checked when `up` runs the pack again.
    const url = fieldOf(config.value, "url");
    if (url.state !== "known" || typeof url.value !== "string") return [];
    // The URL may carry a secret in its path or query: the messages name the field and the list only.
    const found: string[] = [];
    if (!url.value.toLowerCase().startsWith("https://")) found.push("config.url does not use https");
    const host = URL.canParse(url.value) ? new URL(url.value).hostname : undefined;
    if (allowedHosts && host !== undefined && !isAllowedHost(host, allowedHosts))
      found.push(`config.url's host is not one of allowedHosts (${allowedHosts.join(", ") || "none"})`);
    return found;
  },
});
