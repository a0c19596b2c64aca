// The provider's settings as users set them (`pulumi config set voiceagent:<name>`), with their doc
// text: the one source of the schema's config and Provider inputs and of the keys the native
// plugin accepts. The rules that check them live in settings.ts beside this file.

/** One provider setting. */
export interface SettingDoc {
  name: string;
  doc: string;
  /** The environment variable read when the stack's config does not set it. */
  env: string;
  secret?: true;
  /** The value used when neither config nor environment sets it. */
  default?: string;
}

/** Every setting, in the order the schema lists them. */
export const SETTINGS: readonly SettingDoc[] = [
  {
    name: "baseUrl",
    doc: "The service's base URL, e.g. https://api.example.com (http or https, no credentials, query or fragment). Falls back to VOICEAGENT_BASE_URL.",
    env: "VOICEAGENT_BASE_URL",
  },
  {
    name: "token",
    doc: "The API token, sent as a bearer token. Set it as a secret: `pulumi config set --secret voiceagent:token <token>`. Falls back to VOICEAGENT_TOKEN.",
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
  },
  {
    name: "api",
    doc:
      'Which generation of the service\'s API to write in: "2023" (the interface: voice_base voices, null clears), ' +
      '"2024" (the current API, as its SDK 0.0.48 describes it: five voice types, prompts inline, no null) or "auto" ' +
      "(default: told from the service's answers, else 2023). Reads accept both. Falls back to VOICEAGENT_API.",
    env: "VOICEAGENT_API",
    default: "auto",
  },
  {
    name: "operationTimeout",
    doc: "The most time one operation may spend retrying a slow or throttling service, as a duration such as 90s, 5m or 1h (unset: 2m). Falls back to VOICEAGENT_OPERATION_TIMEOUT.",
    env: "VOICEAGENT_OPERATION_TIMEOUT",
  },
];
