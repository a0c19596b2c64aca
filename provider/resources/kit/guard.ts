// The stack config's `voiceagent:` keys as both entries check them. Free of @pulumi/pulumi: the
// native plugin bundles this module, and @pulumi/pulumi's runtime would bring the TypeScript
// compiler into the bundle (dynamic/config-guard.ts throws the dynamic entry's RunError).
import type { Host } from "../../host.js";
import { SETTINGS } from "./setting-docs.js";

/** What a plain-text `voiceagent:token` would do, and what to run instead (both paths say it). */
export const PLAIN_TOKEN =
  "voiceagent:token is set as plain text and would be written to the stack's state unencrypted: " +
  "run `pulumi config set --secret voiceagent:token <token>` (or use VOICEAGENT_TOKEN instead)";

/** The setting names this provider has. */
const SETTING_NAMES: readonly string[] = SETTINGS.map((s) => s.name);
/** Keys the engine itself may add under the provider's namespace. */
const ENGINE_KEYS: readonly string[] = ["version", "pluginDownloadURL"];

/** Whether `key` (namespace removed) is a setting of this provider or one the engine adds. */
export function isSettingKey(key: string): boolean {
  return SETTING_NAMES.includes(key) || ENGINE_KEYS.includes(key);
}

/**
 * The refusal of a `voiceagent:` key this provider does not have (a misspelt setting would
 * otherwise be ignored silently), in the words both entries use.
 */
export function unknownSetting(key: string): string {
  return `voiceagent:${key} is not a setting of this provider (it has ${SETTING_NAMES.join(", ")}): run \`pulumi config rm voiceagent:${key}\``;
}

/**
 * What is wrong with the stack's `voiceagent:` config as the program sees it, checked once, before
 * any resource is registered: a token set as plain config (the engine hands the whole stack config
 * to the dynamic provider and records it in state, where only a secret is encrypted), and keys
 * this provider does not have. Each is one line; none holds a value.
 */
export function configProblems(host: Host): string[] {
  if (!host.firstConfigCheck()) return [];
  const config = safeJson(process.env.PULUMI_CONFIG);
  if (!isRecord(config)) return [];
  const secretKeys = safeJson(process.env.PULUMI_CONFIG_SECRET_KEYS);
  const problems: string[] = [];
  for (const key of Object.keys(config)) {
    const m = /^voiceagent:(.+)$/.exec(key);
    if (m?.[1] && !isSettingKey(m[1])) problems.push(unknownSetting(m[1]));
  }
  if ("voiceagent:token" in config && !(Array.isArray(secretKeys) && secretKeys.includes("voiceagent:token")))
    problems.unshift(PLAIN_TOKEN);
  return problems;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function safeJson(text: string | undefined): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
