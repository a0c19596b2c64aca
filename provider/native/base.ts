import * as pulumi from "@pulumi/pulumi";
import { dynamicToken, tokenOf } from "../identity.js";
import { KIND_PROPERTIES } from "../generated/properties.js";
import { PLUGIN_DOWNLOAD_URL, PLUGIN_VERSION } from "./version.js";

/** The resource kinds, by Pulumi type name ("Agent", ...). */
export type NativeKind = keyof typeof KIND_PROPERTIES;

/**
 * What every native resource does: register under its kind's token (identity.ts) with this package's
 * plugin version, every declared property of the kind (unset ones as placeholders, so every typed
 * output exists) and its secret outputs, and an alias to the kind's dynamic type, so a stack
 * written by the dynamic classes moves over by changing the import: the engine finds the old state
 * under the alias (same name, parent, project and stack), and the plugin reports the recorded
 * dynamic provider (dynamic/migration.ts) as the only change, dropped without a request.
 */
export abstract class NativeResource extends pulumi.CustomResource {
  protected constructor(kind: NativeKind, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    const registers: { properties: readonly string[]; secrets?: readonly string[] } = KIND_PROPERTIES[kind];
    const own: pulumi.CustomResourceOptions = {
      version: PLUGIN_VERSION,
      // The engine installs a missing plugin from here at the first registration (so no `plugins:`
      // entry in Pulumi.yaml); a program on the dynamic classes registers none and downloads nothing.
      pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
      aliases: [{ type: dynamicToken(kind) }],
      ...(registers.secrets ? { additionalSecretOutputs: [...registers.secrets] } : {}),
    };
    const props: Record<string, unknown> = {
      ...Object.fromEntries(registers.properties.map((p) => [p, undefined])),
      ...args,
    };
    // A secret input (a vendor key) given as a plain string: the engine records inputs as the
    // program gives them, so it is wrapped here, or the state would hold it in plaintext.
    for (const p of registers.secrets ?? []) if (props[p] !== undefined) props[p] = pulumi.secret(props[p]);
    super(tokenOf(kind), name, props, pulumi.mergeOptions(own, opts));
  }
}
