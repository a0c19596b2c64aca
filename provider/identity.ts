// The package's identity, in one place: its name (the plugin's, the provider's config namespace)
// and the type tokens its resources have on each provider. The program side imports this too, so
// it imports nothing.

/** The Pulumi package name: `pulumi-resource-voiceagent`, `voiceagent:baseUrl`, `pulumi:providers:voiceagent`. */
export const PACKAGE = "voiceagent";

/** The token prefix of the native provider's resources. */
const NATIVE_PREFIX = "voiceagent:index:";
/** The token prefix of the dynamic provider's resources (0.1.0 onward): the dynamic host's module, then ours. */
const DYNAMIC_PREFIX = `pulumi-nodejs:dynamic/${PACKAGE}:`;

/** The package's token for a resource kind (on the native provider) or a type: `voiceagent:index:Agent`. */
export const tokenOf = (name: string): string => `${NATIVE_PREFIX}${name}`;

/** The type token of a kind on the dynamic provider: `pulumi-nodejs:dynamic/voiceagent:Agent`. */
export const dynamicToken = (kind: string): string => `${DYNAMIC_PREFIX}${kind}`;

/** Which provider a token belongs to. */
export type TokenProvider = "native" | "dynamic";

/** A token's kind name and provider, or undefined for a token that is not this package's. */
export function parseToken(type: string): { kind: string; provider: TokenProvider } | undefined {
  if (type.startsWith(NATIVE_PREFIX)) return { kind: type.slice(NATIVE_PREFIX.length), provider: "native" };
  if (type.startsWith(DYNAMIC_PREFIX)) return { kind: type.slice(DYNAMIC_PREFIX.length), provider: "dynamic" };
  return undefined;
}

/**
 * The kind of a type token on either provider, if it is one of `kinds` (the caller's registry:
 * this module loads none), or undefined for resources that are not ours.
 */
export function kindOfType<K extends string>(type: string, kinds: readonly K[]): K | undefined {
  const kind = parseToken(type)?.kind;
  return kinds.find((k) => k === kind);
}
