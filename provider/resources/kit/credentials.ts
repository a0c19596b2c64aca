import { createClient, type VoiceAgentClient } from "../../client/index.js";

/** What `configure` captured from the stack's config. */
export interface ProviderSettings {
  baseUrl?: string | undefined;
  token?: string | undefined;
}

const clients = new Map<string, VoiceAgentClient>();

/**
 * The client for these settings, with environment fallbacks (VOICEAGENT_BASE_URL,
 * VOICEAGENT_TOKEN). One client per (baseUrl, token) in the provider process, so every resource
 * shares one concurrency cap. Fails with what to set when either is missing.
 */
export function clientFor(settings: ProviderSettings | undefined): VoiceAgentClient {
  const baseUrl = settings?.baseUrl || process.env.VOICEAGENT_BASE_URL;
  const token = settings?.token || process.env.VOICEAGENT_TOKEN;
  if (!baseUrl) {
    throw new Error("voiceagent:baseUrl is not set: run `pulumi config set voiceagent:baseUrl <url>` or set VOICEAGENT_BASE_URL");
  }
  if (!token) {
    throw new Error("voiceagent:token is not set: run `pulumi config set --secret voiceagent:token <token>` or set VOICEAGENT_TOKEN");
  }
  const key = `${baseUrl}\u0000${token}`;
  let client = clients.get(key);
  if (!client) {
    client = createClient({ baseUrl, token });
    clients.set(key, client);
  }
  return client;
}
