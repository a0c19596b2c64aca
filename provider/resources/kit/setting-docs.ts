import type { ExtensionsSetting } from "../../client/capabilities.js";
import { DEFAULT_RETRY } from "../../client/retry-defaults.js";

// The provider's settings as users set them (`pulumi config set voiceagent:<name>`), with their doc
// text: the one source of the schema's config and Provider inputs, of the native `ProviderArgs`
// (generated/provider-args.ts) and of the keys the native plugin accepts. The rules that check
// them live in settings.ts beside this file and read the values and defaults from here.

/** One provider setting. */
export interface SettingDoc {
  name: string;
  doc: string;
  /** The environment variable read when the stack's config does not set it. */
  env: string;
  secret?: true;
  /** The value used when neither config nor environment sets it. */
  default?: string;
  /** The only values it takes, when it is one of a few. */
  values?: readonly string[];
}

/** A duration in ms as users write one: "2m", "90s", "1h". */
export function durationText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${ms / 1_000}s`;
}

/** What an unset operationTimeout means: the client's own retry budget. */
export const DEFAULT_OPERATION_TIMEOUT = durationText(DEFAULT_RETRY.budgetMs);

/** The values of `extensions`. */
export const EXTENSIONS_VALUES = ["auto", "all", "none"] as const satisfies readonly ExtensionsSetting[];

/** Every setting, in the order the schema lists them. */
export const SETTINGS: readonly SettingDoc[] = [
  {
    name: "baseUrl",
    doc:
      "The service's base URL, e.g. https://api.example.com (http or https, no credentials, query or fragment). " +
      "Falls back to VOICEAGENT_BASE_URL.",
    env: "VOICEAGENT_BASE_URL",
  },
  {
    name: "token",
    doc:
      "The API token, sent as a bearer token. Set it as a secret: `pulumi config set --secret voiceagent:token " +
      "<token>`. Falls back to VOICEAGENT_TOKEN.",
    env: "VOICEAGENT_TOKEN",
    secret: true,
  },
  {
    name: "extensions",
    doc:
      'Which routes beyond the documented interface the provider uses: "auto" (default: ask the service once), ' +
      '"all" or "none". Falls back to VOICEAGENT_EXTENSIONS.',
    env: "VOICEAGENT_EXTENSIONS",
    default: "auto",
    values: EXTENSIONS_VALUES,
  },
  {
    name: "api",
    doc:
      'Which generation of the service\'s API to write in: "2023" (the interface: voice_base voices, null clears), ' +
      '"2024" (the current API, as its SDK 0.0.48 describes it: five voice types, prompts inline, no null) or "auto" ' +
      "(default: asked of the service once per provider configuration, before any check: one GET of the agent list's " +
      "first page; else 2023). Reads accept both. Falls back to VOICEAGENT_API.",
    env: "VOICEAGENT_API",
    default: "auto",
  },
  {
    name: "operationTimeout",
    doc:
      `The most time one operation may spend retrying a slow or throttling service, as a duration such as 90s, ` +
      `5m or 1h (unset: ${DEFAULT_OPERATION_TIMEOUT}). Falls back to VOICEAGENT_OPERATION_TIMEOUT.`,
    env: "VOICEAGENT_OPERATION_TIMEOUT",
  },
];
