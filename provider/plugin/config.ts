import { inputFailure, type CheckFailure } from "../resources/kit/check.js";
import { isSettingKey, unknownSetting } from "../resources/kit/guard.js";
import type { Props } from "../resources/kit/kind.js";
import { SETTINGS } from "../resources/kit/setting-docs.js";
import { resolveSettings, type ProviderSettings } from "../resources/kit/settings.js";
import { containsUnknown } from "../resources/kit/unknown.js";

// The provider's configuration as the engine hands it over: only `voiceagent:*` keys, namespace
// removed (CheckConfig/DiffConfig `news`/`olds`, Configure `args`; pkg/resource/deploy/providers
// FilterProviderConfig in pulumi v3.274.1). `version` is the engine's own: the version of the
// plugin the program's SDK asked for.

/** The settings this provider has; everything else under `voiceagent:` is a mistake. */
export const CONFIG_KEYS: readonly string[] = SETTINGS.map((s) => s.name);

/** A config value as the text a setting is made of (the CLI passes non-strings as JSON). */
function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * The settings the kit resolves (with the `VOICEAGENT_*` environment as fallback) from a config
 * map, in the shape the dynamic shim gives it, so both paths resolve settings by the same code.
 */
export function settingsOf(config: Props): ProviderSettings {
  const get = (key: string): string | undefined => text(config[key.replace(/^voiceagent:/, "")]);
  return { baseUrl: get("baseUrl"), token: get("token"), config: { get } };
}

/**
 * What is wrong with this configuration, before any request: a missing or malformed setting
 * names its key and the command that sets it (the kit's own messages), and a key this provider
 * does not have is named with the ones it does. A value unknown at preview is checked when known.
 * Failures carry no property, so the engine never prints a value (it prints the property's value
 * beside a failure that names one, and the token is one).
 */
export function configFailures(config: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const key of Object.keys(config)) {
    // The same words as the dynamic entry's refusal (kit/guard.ts).
    if (!isSettingKey(key)) failures.push(inputFailure(unknownSetting(key)));
  }
  if (Object.values(config).some(containsUnknown)) return failures;
  return [...failures, ...resolveSettings(settingsOf(config)).problems];
}

/** The setting keys whose values differ between two configurations (values are never shown). */
export function changedSettings(olds: Props, news: Props): string[] {
  return CONFIG_KEYS.filter((k) => containsUnknown(news[k]) || text(olds[k]) !== text(news[k]));
}

/** The version of the plugin the program's SDK asked for, when the engine says. */
export function requestedVersion(config: Props): string | undefined {
  return typeof config.version === "string" ? config.version : undefined;
}
