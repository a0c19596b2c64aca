import {
  createClient,
  MemoryLedger,
  type ApiSetting,
  type CreateLedger,
  type ExtensionsSetting,
  type VoiceAgentClient,
} from "../../client/index.js";
import { inputFailure, type CheckFailure } from "./check.js";
import type { Host } from "../../host.js";
import { Refusal } from "./refusal.js";
import { DEFAULT_OPERATION_TIMEOUT, EXTENSIONS_VALUES, SETTINGS } from "./setting-docs.js";
import { SharedLedger } from "../../coordination/shared-ledger.js";
import { containsUnknown } from "./unknown.js";

/** What `configure` captured from the stack's config (older serialized providers pass no `config`). */
export interface ProviderSettings {
  baseUrl?: string | undefined;
  token?: string | undefined;
  /** The stack's whole config, for settings added after 0.1.0. */
  config?: { get(key: string): string | undefined } | undefined;
}

/** The settings a client needs, once resolved and checked. */
interface Resolved {
  baseUrl: string;
  token: string;
  extensions: ExtensionsSetting;
  /** The API generation to write in (voiceagent:api). */
  api: ApiSetting;
  /** The most time one operation may spend retrying, in ms. */
  budgetMs: number | undefined;
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
  resolved?: Resolved;
  problems: CheckFailure[];
} {
  return resolveRaw(rawSettings(settings));
}

/** {@link resolveSettings} of settings already read: a function of their text alone. */
function resolveRaw({ baseUrl, token, extensions, api, timeout }: RawSettings): {
  resolved?: Resolved;
  problems: CheckFailure[];
} {
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

/**
 * The create ledger of the account a token names: the deployment's shared one in a provider process
 * that joined its deployment (the engine runs a plugin process per provider instance and one
 * dynamic host, and several may serve one account), else one of this process's own (tests, and
 * platforms where the engine cannot be found).
 */
function ledgerFor(host: Host, token: string): CreateLedger {
  const { ledgers, deployment } = host;
  let ledger = ledgers.get(token);
  if (!ledger) {
    ledger = deployment ? new SharedLedger(deployment, token) : new MemoryLedger();
    ledgers.set(token, ledger);
  }
  return ledger;
}

/**
 * The client these settings already have in `host`, if any: for what only concerns a client
 * that exists (ending a refresh's reads in pages), without making one.
 */
export function existingClient(host: Host, settings: ProviderSettings | undefined): VoiceAgentClient | undefined {
  if (settingsUnknown(settings)) return undefined;
  const raw = rawSettings(settings);
  const known = host.clientsBySettings.get(JSON.stringify(raw));
  if (known) return known;
  const { resolved } = resolveRaw(raw);
  return resolved ? host.clients.get(JSON.stringify(resolved)) : undefined;
}

/**
 * The client for these settings. One client per set of settings in `host`, so every resource
 * shares one limiter and one answer about extension routes; one ledger of creates per account (see
 * `ledgerFor`). Fails with every problem of the settings when they are not usable. The client is
 * made in the host (`host.run`), so its token's redaction and its pacer are the host's own.
 */
export function clientFor(host: Host, settings: ProviderSettings | undefined): VoiceAgentClient {
  // Every read of a refresh asks for its client: settings whose text was resolved before name
  // their client without being checked again (resolving is a function of that text alone).
  const raw = rawSettings(settings);
  const rawKey = JSON.stringify(raw);
  const known = host.clientsBySettings.get(rawKey);
  if (known) return known;
  const { resolved, problems } = resolveRaw(raw);
  if (!resolved) throw new Refusal("E_SETTINGS", problems.map((p) => p.reason).join("; "));
  const key = JSON.stringify(resolved);
  const { clients } = host;
  let client = clients.get(key);
  if (!client) {
    const { baseUrl, token, extensions, api, budgetMs } = resolved;
    client = host.run(() =>
      createClient({
        baseUrl,
        token,
        extensions,
        api,
        ledger: ledgerFor(host, token),
        ...(budgetMs ? { retry: { budgetMs } } : {}),
      }),
    );
    clients.set(key, client);
  }
  host.clientsBySettings.set(rawKey, client);
  return client;
}
