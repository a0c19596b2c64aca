import { actionKind } from "../resources/kinds/action.js";
import { agentKind } from "../resources/kinds/agent.js";
import { callKind } from "../resources/kinds/call.js";
import { phoneNumberKind } from "../resources/kinds/phone-number.js";
import { purchasedNumberKind } from "../resources/kinds/purchased-number.js";
import { voiceKind } from "../resources/kinds/voice.js";
import { webhookKind } from "../resources/kinds/webhook.js";

/** A kind as far as registering it goes: its input and output property names. */
interface Declared {
  kind: string;
  input: { shape: object };
  outputs: object;
}

const DECLARED: readonly Declared[] = [agentKind, voiceKind, actionKind, webhookKind, phoneNumberKind, purchasedNumberKind, callKind];

/** The native resource kinds, by Pulumi type name ("Agent", ...). */
export type NativeKind = "Agent" | "Voice" | "Action" | "Webhook" | "PhoneNumber" | "PurchasedNumber" | "Call";

const names = new Map(DECLARED.map((d) => [d.kind, [...Object.keys(d.input.shape), ...Object.keys(d.outputs)]]));

/**
 * Every property a resource of `kind` reads back, each undefined: the SDK makes an output only for
 * the properties it is registered with, so an output the program does not set needs a placeholder.
 * Derived from the kind's declaration (its inputs and its own outputs), never listed by hand.
 */
export function placeholders(kind: NativeKind): Record<string, undefined> {
  const list = names.get(kind);
  if (!list) throw new Error(`pulumi-voiceagent/native: no kind ${kind}; this is a bug in the package`);
  return Object.fromEntries(list.map((n) => [n, undefined]));
}
