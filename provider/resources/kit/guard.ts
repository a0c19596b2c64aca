import { Refusal } from "./refusal.js";

let checked = false;

/** What a plain-text `voiceagent:token` would do, and what to run instead (both paths say it). */
export const PLAIN_TOKEN =
  "voiceagent:token is set as plain text and would be written to the stack's state unencrypted: " +
  "run `pulumi config set --secret voiceagent:token <token>` (or use VOICEAGENT_TOKEN instead)";

/**
 * Refuses a token set as plain config: the engine hands the whole stack config to the dynamic
 * provider and records it in state, where only a secret is encrypted.
 */
export function assertTokenIsSecret(): void {
  if (checked) return;
  checked = true;
  const config = safeJson(process.env.PULUMI_CONFIG) as Record<string, unknown> | undefined;
  const secretKeys = safeJson(process.env.PULUMI_CONFIG_SECRET_KEYS);
  if (!config || !("voiceagent:token" in config)) return;
  if (Array.isArray(secretKeys) && secretKeys.includes("voiceagent:token")) return;
  throw new Refusal("E_PLAIN_TOKEN", PLAIN_TOKEN);
}

function safeJson(text: string | undefined): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
