// Reads the fleet from the stack's config, where a stack file declares it under the project's own
// namespace (`<project>:fleet`; `voiceagent:*` keys stay the provider's settings).
import * as pulumi from "@pulumi/pulumi";
import { FleetConfigError } from "./error.js";
import { loadCheck } from "./load-check.js";
import type { FleetArgs } from "./spec.js";

/**
 * The fleet of this stack, read from its config value `key` (default `fleet`) and checked: every
 * problem is reported at once, naming its path, before anything is registered or sent. When any
 * path of the value was set with `--secret`, Pulumi marks the whole value secret (it does not tell
 * a program which paths), so every value of the fleet is then stored as a secret; the keys, which
 * name resources, stay readable.
 * @example
 * import { Fleet, fleetFromConfig } from "pulumi-voiceagent/native";
 * const fleet = new Fleet("fleet", fleetFromConfig());
 * export const ids = fleet.ids;
 */
export function fleetFromConfig(key = "fleet"): FleetArgs {
  const config = new pulumi.Config();
  const fullKey = `${config.name}:${key}`;
  const file = `Pulumi.${pulumi.getStack()}.yaml`;
  const refuse = (problem: string) => new FleetConfigError([`${key}: ${problem}`], key, file);
  // Read as text and parsed here: Config.getObject's own error repeats the value, which may be a secret.
  const raw = config.get(key);
  if (raw === undefined)
    throw refuse(
      `required: this stack's config has no \`${fullKey}\`; declare the fleet there (voices, actions, webhooks, agents, lines)`,
    );
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw refuse("must be a mapping of voices, actions, webhooks, agents and lines, not a single value");
  }
  return { fleet: loadCheck().parseFleet(value, key, file), secret: isSecretKey(fullKey), source: key };
}

/**
 * Whether Pulumi passed this config key as a secret. @pulumi/pulumi has the answer in an internal
 * function (present since long before our oldest supported version); the language host's
 * PULUMI_CONFIG_SECRET_KEYS is the same list. Unknown counts as secret: a secret must never be
 * stored in plaintext because we could not tell.
 */
function isSecretKey(fullKey: string): boolean {
  const internal: unknown = Reflect.get(pulumi.runtime, "isConfigSecret");
  if (typeof internal === "function") return internal(fullKey) === true;
  const listed: unknown = JSON.parse(process.env.PULUMI_CONFIG_SECRET_KEYS ?? "null");
  return Array.isArray(listed) ? listed.includes(fullKey) : true;
}
