// The wire fields that are secret by nature, per collection of the service, as dotted paths into an
// object as the current API returns it (an embedded object's secrets are listed under the object
// that embeds it). One place, so the provider (secret outputs, redacted errors and logs), the CLI
// and the emulator's tests agree on what must never be shown. The voices' api_key is a vendor key, its api_user_id
// the Play.ht account that goes with it.

/** Secret wire fields per collection. */
export const SECRET_WIRE_FIELDS = {
  account_connections: ["credentials.openai_api_key", "credentials.twilio_auth_token"],
  vector_databases: ["api_key"],
  // An external action's signature secret: what the service signs its requests to the team's API with.
  actions: ["config.signature_secret"],
  voices: ["api_key", "api_user_id"],
  agents: [
    "voice.api_key",
    "voice.api_user_id",
    "vector_database.api_key",
    "openai_account_connection.credentials.openai_api_key",
  ],
  numbers: ["telephony_account_connection.credentials.twilio_auth_token"],
  calls: ["telephony_account_connection.credentials.twilio_auth_token"],
} as const satisfies Record<string, readonly string[]>;

/** A collection that holds secrets. */
export type SecretHolder = keyof typeof SECRET_WIRE_FIELDS;

/** The secret values an answer of `collection` holds (present, non-empty strings), e.g. to redact or grep for. */
export function secretValuesOf(collection: SecretHolder, obj: unknown): string[] {
  const found: string[] = [];
  for (const path of SECRET_WIRE_FIELDS[collection]) {
    let at: unknown = obj;
    for (const key of path.split(".")) {
      at = typeof at === "object" && at !== null && !Array.isArray(at) ? Reflect.get(at, key) : undefined;
    }
    if (typeof at === "string" && at !== "") found.push(at);
  }
  return found;
}

/**
 * How a hosted service answers a credential it keeps but will not show: `****` and the last four
 * characters. One owner, so an import that takes the service's echo of a credential (a masked one is
 * no value) and the emulator that masks agree on the form.
 */
export const MASK_PREFIX = "****";

/** The masked form of `value` as a hosted service answers it. */
export const maskedCredential = (value: string): string => `${MASK_PREFIX}${value.slice(-4)}`;

/** Whether `value` is a masked answer, not a credential. */
export const isMaskedCredential = (value: string): boolean => value.startsWith(MASK_PREFIX);
