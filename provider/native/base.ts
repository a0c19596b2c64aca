import * as pulumi from "@pulumi/pulumi";
import { DECLARED } from "../resources/declared.js";
import { PLUGIN_VERSION } from "./version.js";

/** The resource kinds, by Pulumi type name ("Agent", ...). */
export type NativeKind = keyof typeof DECLARED;

/** The type token of a kind on the native provider: `voiceagent:index:Agent`. */
export const nativeType = (kind: NativeKind): string => `voiceagent:index:${kind}`;

/** The type token the same kind has on the dynamic provider (0.1.0 onward): `pulumi-nodejs:dynamic/voiceagent:Agent`. */
export const dynamicType = (kind: NativeKind): string => `pulumi-nodejs:dynamic/voiceagent:${kind}`;

/**
 * What every native resource does: register under `voiceagent:index:<kind>` with this package's
 * plugin version, every declared property of the kind (unset ones as placeholders, so every typed
 * output exists) and its secret outputs, and an alias to the kind's dynamic type, so a stack
 * written by the dynamic classes moves over by changing the import: the engine finds the old state
 * under the alias (same name, parent, project and stack), and the plugin reports the recorded
 * dynamic provider (kit/migration.ts) as the only change, dropped without a request.
 */
export abstract class NativeResource extends pulumi.CustomResource {
  protected constructor(kind: NativeKind, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    const declared: { properties: readonly string[]; secrets?: readonly string[] } = DECLARED[kind];
    const own: pulumi.CustomResourceOptions = {
      version: PLUGIN_VERSION,
      aliases: [{ type: dynamicType(kind) }],
      ...(declared.secrets ? { additionalSecretOutputs: [...declared.secrets] } : {}),
    };
    const props = { ...Object.fromEntries(declared.properties.map((p) => [p, undefined])), ...args };
    super(nativeType(kind), name, props, pulumi.mergeOptions(own, opts));
  }
}
