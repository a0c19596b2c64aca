import * as pulumi from "@pulumi/pulumi";
import { PACKAGE, tokenOf } from "../identity.js";
import { refuseBadConfig } from "./config-guard.js";
import { LOGICAL_NAME_KEY } from "../resources/kit/autoname.js";
import { providerShim } from "./shim.js";
import { PROGRAM_HOST, SHIMS } from "./program.js";

/** What the resources of a kind register (generated/properties.ts, from the kind by `npm run gen`). */
export interface KindProperties {
  /** Every property, inputs and outputs: each becomes an output of the resource, set or not. */
  properties: readonly string[];
  /** Outputs that are personal data or credentials, and inputs that are credentials: encrypted in the state, shown as [secret]. */
  secrets?: readonly string[];
  /** The input one resource only may hold in a program (the kind's `boundOnce` field), checked here. */
  boundOnce?: string;
}

/**
 * What every resource of this package does when the program declares it: refuse a token set as
 * plain config and a misspelt setting (before anything is registered; a RunError is one line, with
 * no stack trace, as the native plugin's refusal is), and register with its kind's provider under the
 * kind's dynamic type token (identity.ts). Every declared property is registered (unset ones
 * as undefined placeholders, which Pulumi does not send), so every typed output exists.
 */
export abstract class VoiceAgentResource extends pulumi.dynamic.Resource {
  protected constructor(
    kind: string,
    name: string,
    args: object,
    options: pulumi.CustomResourceOptions | undefined,
    registers: KindProperties,
  ) {
    refuseBadConfig();
    const props: Record<string, unknown> = {
      ...Object.fromEntries(registers.properties.map((p) => [p, undefined])),
      ...args,
      // Its check is told no name: handed over for the default display name, never recorded (kit/autoname.ts).
      [LOGICAL_NAME_KEY]: name,
    };
    // A secret input (a vendor key) given as a plain string: the engine records inputs as the
    // program gives them, so it is wrapped here, or the state would hold it in plaintext.
    for (const p of registers.secrets ?? []) if (props[p] !== undefined) props[p] = pulumi.secret(props[p]);
    const opts = registers.secrets?.length
      ? pulumi.mergeOptions(options, { additionalSecretOutputs: [...registers.secrets] })
      : options;
    let provider = SHIMS.get(kind);
    if (!provider) {
      provider = providerShim(kind);
      SHIMS.set(kind, provider);
    }
    // Back from the native provider (pulumi-voiceagent/native) without replacing: the same kind there.
    super(provider, name, props, pulumi.mergeOptions({ aliases: [{ type: tokenOf(kind) }] }, opts), PACKAGE, kind);
    // A dynamic provider's check is not told which resource it checks (the native plugin's is), so
    // an input one resource only may hold is checked here, in the program: at once for a plain
    // value (a RunError here is one line), when known for an Output (its failure comes with the
    // runtime's stack trace: the SDK does not treat a RunError inside an apply as one).
    const field = registers.boundOnce;
    const value = field ? props[field] : undefined;
    const hold = (v: unknown) => {
      const failure = field && typeof v === "string" ? PROGRAM_HOST.bindings.hold(kind, field, v, name) : undefined;
      if (failure) throw new pulumi.RunError(`${kind} resource '${name}' has a problem: ${failure.reason}`);
    };
    if (pulumi.Output.isInstance(value)) value.apply(hold);
    else hold(value);
  }
}
