import { createClient, type ExtensionsSetting, type VoiceAgentClient } from "../../client/index.js";
import type { CheckFailure } from "./check.js";

/** What `configure` captured from the stack's config (older serialized providers pass no `config`). */
export interface ProviderSettings {
  baseUrl?: string | undefined;
  token?: string | undefined;
  /** The stack's whole config, for settings added after 0.1.0 (`voiceagent:extensions`). */
  config?: { get(key: string): string | undefined } | undefined;
}

/** The settings a client needs, once resolved and checked. */
interface Resolved {
  baseUrl: string;
  token: string;
  extensions: ExtensionsSetting;
}

const SET_URL = "run `pulumi config set voiceagent:baseUrl <url>` (or set VOICEAGENT_BASE_URL)";
const SET_TOKEN = "run `pulumi config set --secret voiceagent:token <token>` (or set VOICEAGENT_TOKEN)";

/**
 * Resolves stack config with the environment as fallback and says what is wrong with it, naming
 * the setting and the command that fixes it. Checked in `check`, so `pulumi preview` fails before
 * any request is sent; the token's value never appears in a message.
 */
export function resolveSettings(settings: ProviderSettings | undefined): { resolved?: Resolved; problems: CheckFailure[] } {
  const problems: string[] = [];
  const baseUrl = settings?.baseUrl || process.env.VOICEAGENT_BASE_URL;
  const token = settings?.token || process.env.VOICEAGENT_TOKEN;
  const extensions = settings?.config?.get("voiceagent:extensions") || process.env.VOICEAGENT_EXTENSIONS || "auto";
  if (!baseUrl?.trim()) problems.push(`voiceagent:baseUrl is not set: ${SET_URL}`);
  else {
    const why = urlProblem(baseUrl);
    if (why) problems.push(`voiceagent:baseUrl ${why}: ${SET_URL}`);
  }
  if (!token?.trim()) problems.push(`voiceagent:token is not set: ${SET_TOKEN}`);
  else if (/\s/.test(token)) problems.push(`voiceagent:token contains whitespace (a stray newline or space?): ${SET_TOKEN}`);
  if (extensions !== "auto" && extensions !== "all" && extensions !== "none") {
    problems.push('voiceagent:extensions must be "auto", "all" or "none": run `pulumi config set voiceagent:extensions auto`');
  }
  const failures = problems.map((reason) => ({ property: "", reason }));
  if (failures.length || !baseUrl || !token || (extensions !== "auto" && extensions !== "all" && extensions !== "none")) {
    return { problems: failures };
  }
  return { resolved: { baseUrl: baseUrl.trim(), token, extensions }, problems: [] };
}

function urlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return "is not a URL (e.g. https://api.example.com)";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `must be an http(s) URL, not ${url.protocol}`;
  if (url.username || url.password) return "must not hold credentials (put the token in voiceagent:token)";
  if (url.search || url.hash) return "must not have a query or fragment";
  return undefined;
}

const clients = new Map<string, VoiceAgentClient>();

/**
 * The client for these settings. One client per (baseUrl, token) in the provider process, so
 * every resource shares one limiter, one ledger of creates and one answer about extension routes.
 * Fails with every problem of the settings when they are not usable.
 */
export function clientFor(settings: ProviderSettings | undefined): VoiceAgentClient {
  const { resolved, problems } = resolveSettings(settings);
  if (!resolved) throw new Error(problems.map((p) => p.reason).join("; "));
  const key = `${resolved.baseUrl}\u0000${resolved.token}\u0000${resolved.extensions}`;
  let client = clients.get(key);
  if (!client) {
    client = createClient({ baseUrl: resolved.baseUrl, token: resolved.token, extensions: resolved.extensions });
    clients.set(key, client);
  }
  return client;
}
