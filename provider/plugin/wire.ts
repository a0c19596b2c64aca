import { Struct } from "google-protobuf/google/protobuf/struct_pb.js";
import type { Props } from "../resources/kit/kind.js";

// Property values as the engine sends them in a google.protobuf.Struct, and back. The sentinels are
// the engine's own (pulumi/pulumi v3.259.0 sdk/nodejs/runtime/rpc.ts: `unknownValue`,
// `specialSigKey`, `specialSecretSig`). Unknowns (preview) are kept as the string the kit already
// knows (kit/unknown.ts). Secrets are unwrapped: this plugin answers `acceptSecrets: false`, so the
// engine strips them itself everywhere but in Configure's `args` (MarshalProperties with
// KeepSecrets: true, pkg/resource/plugin/provider_plugin.go), and re-marks outputs secret by name.

/** The key that marks a special value (secret, asset, resource reference) in a Struct. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The signature of a secret: `{[SIG_KEY]: SECRET_SIG, value}`. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A value with every secret wrapper replaced by the value it holds. */
export function unwrapSecrets(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  if (v && typeof v === "object") {
    const o = Object.fromEntries(Object.entries(v));
    if (o[SIG_KEY] === SECRET_SIG) return unwrapSecrets(o.value);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, unwrapSecrets(x)]));
  }
  return v;
}

/** The properties in a request's Struct (none when it is absent), secrets unwrapped. */
export function propsOf(s: Struct | undefined): Props {
  if (!s) return {};
  return Object.fromEntries(Object.entries(s.toJavaScript()).map(([k, v]) => [k, unwrapSecrets(v)]));
}

/** A value a Struct can hold. */
type StructValue = ReturnType<Struct["toJavaScript"]>[string];

/** A JSON-like value as a Struct value: undefined members are left out (a missing key reads as unset). */
function structValue(v: unknown): StructValue {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return v.map(structValue);
  if (typeof v === "object") return structRecord(Object.entries(v));
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  return String(v);
}

function structRecord(entries: [string, unknown][]): Record<string, StructValue> {
  return Object.fromEntries(entries.flatMap(([k, x]) => (x === undefined ? [] : [[k, structValue(x)]])));
}

/** Properties as a Struct for a response. */
export function structOf(props: Props): Struct {
  return Struct.fromJavaScript(structRecord(Object.entries(props)));
}

/** The properties without the serialized dynamic provider a migrated stack still records. */
export function withoutProvider(props: Props): Props {
  const { __provider: _dropped, ...rest } = props;
  return rest;
}
