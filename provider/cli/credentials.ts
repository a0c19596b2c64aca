import { z } from "zod";
import { registerSecret } from "../client/index.js";
import { CliError } from "./errors.js";
import { stackConfig, type PulumiContext } from "./pulumi-cli.js";

/** Where the service is and the token to use: the token is never printed. */
export interface Credentials {
  baseUrl: string;
  token: string;
}

/** What the credentials are resolved from, in order of precedence. */
export interface CredentialSources {
  /** `--base-url`. */
  baseUrl?: string | undefined;
  env: NodeJS.ProcessEnv;
  /** A stack whose `voiceagent:baseUrl` / `voiceagent:token` config may supply what is missing. */
  stack?: { name: string; ctx: PulumiContext } | undefined;
}

const BaseUrlSchema = z.url({ protocol: /^https?$/ });

/**
 * Resolves the base URL (`--base-url`, then VOICEAGENT_BASE_URL, then the stack's
 * `voiceagent:baseUrl`) and the token (VOICEAGENT_TOKEN, then the stack's `voiceagent:token`).
 * There is no token flag: a flag's value shows in shell history and process lists.
 */
export async function resolveCredentials(src: CredentialSources): Promise<Credentials> {
  let baseUrl = src.baseUrl || src.env.VOICEAGENT_BASE_URL || undefined;
  let token = src.env.VOICEAGENT_TOKEN || undefined;
  if ((!baseUrl || !token) && src.stack) {
    const config = await stackConfig(src.stack.ctx, src.stack.name);
    baseUrl ??= config.get("voiceagent:baseUrl");
    token ??= config.get("voiceagent:token");
  }
  if (token) registerSecret(token);
  const fromStack = src.stack ? ` or \`pulumi config set voiceagent:baseUrl\` on stack ${src.stack.name}` : "";
  if (!baseUrl) throw new CliError(`no service address: pass --base-url or set VOICEAGENT_BASE_URL${fromStack}`);
  if (!BaseUrlSchema.safeParse(baseUrl).success) {
    throw new CliError(
      `--base-url (or VOICEAGENT_BASE_URL) must be an http(s) URL such as https://api.example.com, not "${baseUrl}"`,
    );
  }
  if (!token) {
    const viaStack = src.stack ? ` or \`pulumi config set --secret voiceagent:token\` on stack ${src.stack.name}` : "";
    throw new CliError(`no token: set VOICEAGENT_TOKEN${viaStack}`);
  }
  return { baseUrl, token };
}
