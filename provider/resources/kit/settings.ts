import type { ApiSetting, ExtensionsSetting } from "../../client/index.js";
import type { ClientSettings } from "../../client-pool.js";
import { inputFailure, type CheckFailure } from "./check.js";
import { DEFAULT_OPERATION_TIMEOUT, EXTENSIONS_VALUES, SETTINGS } from "./setting-docs.js";
import { containsUnknown } from "./unknown.js";

/** What `configure` captured from the stack's config (older serialized providers pass no `config`). */
export interface ProviderSettings {
  baseUrl?: string | undefined;
  token?: string | undefined;
  /** The stack's whole config, for settings added after 0.1.0. */
  config?: { get(key: string): string | undefined } | undefined;
}

const SET_URL = "run `pulumi config set voiceagent:baseUrl <url>` (or set VOICEAGENT_BASE_URL)";
const SET_TOKEN = "run `pulumi config set --secret voiceagent:token <token>` (or set VOICEAGENT_TOKEN)";

/** The text of each setting as given (stack config, else the environment): all that resolving them depends on. */
interface RawSettings {
  baseUrl: string;
  token: string;
  extensions: string;
  api: string;
  timeout: string | undefined;
}

/** Each setting's text, from stack config with the `VOICEAGENT_*` environment as fallback; nothing checked yet. */
function rawSettings(settings: ProviderSettings | undefined): RawSettings {
  const setting = (name: string, env: string) =>
    settings?.config?.get(`voiceagent:${name}`) || process.env[env] || undefined;
  return {
    baseUrl: (settings?.baseUrl || process.env.VOICEAGENT_BASE_URL || "").trim(),
    token: settings?.token || process.env.VOICEAGENT_TOKEN || "",
    extensions: setting("extensions", "VOICEAGENT_EXTENSIONS") ?? "auto",
    api: setting("api", "VOICEAGENT_API") ?? "auto",
    timeout: setting("operationTimeout", "VOICEAGENT_OPERATION_TIMEOUT"),
  };
}

/**
 * Resolves stack config with the environment as fallback and says what is wrong with it, naming
 * the setting and the command that fixes it. Checked in `check`, so `pulumi preview` fails before
 * any request is sent; the token's value never appears in a message.
 */
export function resolveSettings(settings: ProviderSettings | undefined): {
  /** The settings a client needs, once resolved and checked. */
  resolved?: ClientSettings;
  problems: CheckFailure[];
} {
  const { baseUrl, token, extensions, api, timeout } = rawSettings(settings);
  const problems: string[] = [];
  if (!baseUrl) problems.push(`voiceagent:baseUrl is not set: ${SET_URL}`);
  else {
    const why = urlProblem(baseUrl);
    if (why) problems.push(`voiceagent:baseUrl ${why}: ${SET_URL}`);
  }
  if (!token.trim()) problems.push(`voiceagent:token is not set: ${SET_TOKEN}`);
  else if (/\s/.test(token))
    problems.push(`voiceagent:token contains whitespace (a stray newline or space?): ${SET_TOKEN}`);
  if (!isExtensionsSetting(extensions)) {
    const quoted = EXTENSIONS_VALUES.map((v) => `"${v}"`);
    problems.push(
      `voiceagent:extensions must be ${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}: run \`pulumi config set ` +
        `voiceagent:extensions ${EXTENSIONS_VALUES[0]}\``,
    );
  }
  if (!isApiSetting(api))
    problems.push('voiceagent:api must be "2023", "2024" or "auto": run `pulumi config set voiceagent:api 2024`');
  const budgetMs = timeout === undefined ? undefined : durationMs(timeout);
  if (budgetMs === null) {
    problems.push(
      `voiceagent:operationTimeout must be a duration such as 90s or 5m: run \`pulumi config set ` +
        `voiceagent:operationTimeout ${DEFAULT_OPERATION_TIMEOUT}\``,
    );
  }
  if (problems.length || !isExtensionsSetting(extensions) || !isApiSetting(api) || budgetMs === null) {
    return { problems: problems.map(inputFailure) };
  }
  return { resolved: { baseUrl, token, extensions, api, budgetMs }, problems: [] };
}

/**
 * True when a setting is not known yet: in a preview, the engine configures an explicit provider
 * whose config comes from another resource's outputs with unknowns. Nothing can be resolved, checked
 * or asked with such settings: that waits for the `up` that knows them.
 */
export function settingsUnknown(settings: ProviderSettings | undefined): boolean {
  if (!settings) return false;
  return [settings.baseUrl, settings.token, ...SETTINGS.map((s) => settings.config?.get(`voiceagent:${s.name}`))].some(
    containsUnknown,
  );
}

function isApiSetting(v: string): v is ApiSetting {
  return v === "2023" || v === "2024" || v === "auto";
}

function isExtensionsSetting(v: string): v is ExtensionsSetting {
  return EXTENSIONS_VALUES.some((x) => x === v);
}

/**
 * What is wrong with a base URL, in words that never quote it: the value may be a secret (a
 * gateway's URL can carry a key in its path or host), and a refusal is printed by the CLI.
 */
function urlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "is not a URL (e.g. https://api.example.com)";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "must be an http(s) URL";
  if (url.username || url.password) return "must not hold credentials (put the token in voiceagent:token)";
  if (url.search || url.hash) return "must not have a query or fragment";
  // The provider adds /v1/... itself: a path would be requested under it, and every route would
  // answer 404 at \`up\` (with "/v1" it would be /v1/v1/...). Refused here, at preview.
  if (url.pathname !== "/") return "must be the service's root URL, without a path (the provider adds /v1/... itself)";
  return undefined;
}

/** "90s", "5m", "1h" or plain seconds, in ms; null when it is none of those or not positive. */
function durationMs(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|h)?$/.exec(text.trim());
  if (!m) return null;
  const ms = Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000 }[m[2] === "m" || m[2] === "h" ? m[2] : "s"];
  return ms > 0 ? ms : null;
}
