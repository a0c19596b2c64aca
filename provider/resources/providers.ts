/**
 * What the serialized provider shims load, by package name, in the provider process:
 * `import("pulumi-voiceagent/providers")`. Its `runtimeFor(kind)` and the runtime's method
 * signatures are a stable contract with every shim ever written into a stack's state.
 */
import { kindRuntime, type KindRuntime } from "./kit/runtime.js";
import { actionKind } from "./kinds/action.js";
import { agentKind } from "./kinds/agent.js";
import { callKind } from "./kinds/call.js";
import { phoneNumberKind } from "./kinds/phone-number.js";
import { purchasedNumberKind } from "./kinds/purchased-number.js";
import { voiceKind } from "./kinds/voice.js";
import { webhookKind } from "./kinds/webhook.js";

const runtimes = new Map<string, KindRuntime>([
  [agentKind.kind, kindRuntime(agentKind)],
  [voiceKind.kind, kindRuntime(voiceKind)],
  [phoneNumberKind.kind, kindRuntime(phoneNumberKind)],
  [purchasedNumberKind.kind, kindRuntime(purchasedNumberKind)],
  [callKind.kind, kindRuntime(callKind)],
  [actionKind.kind, kindRuntime(actionKind)],
  [webhookKind.kind, kindRuntime(webhookKind)],
]);

/** The kinds this release serves, by Pulumi type name. */
export const KINDS: readonly string[] = [...runtimes.keys()];

/** The runtime of one resource kind ("Agent", "Voice", ...). */
export function runtimeFor(kind: string): KindRuntime {
  const r = runtimes.get(kind);
  if (!r) throw new Error(`pulumi-voiceagent: no provider for kind ${kind}; is the installed package older than the program?`);
  return r;
}
