/**
 * What the serialized provider shims load, by package name, in the provider process:
 * `import("pulumi-voiceagent/providers")`. Internal: its shape may change between releases.
 */
import { kindRuntime, type KindRuntime } from "./kit/runtime.js";
import type { ResourceSpec } from "./kit/spec.js";
import { actionSpec } from "./impl/action.js";
import { agentSpec } from "./impl/agent.js";
import { callSpec } from "./impl/call.js";
import { phoneNumberSpec } from "./impl/phone-number.js";
import { voiceSpec } from "./impl/voice.js";
import { webhookSpec } from "./impl/webhook.js";

const specs: ResourceSpec[] = [agentSpec, voiceSpec, phoneNumberSpec, callSpec, actionSpec, webhookSpec];
const runtimes = new Map<string, KindRuntime>(specs.map((s) => [s.kind, kindRuntime(s)]));

/** The runtime of one resource kind ("Agent", "Voice", ...). */
export function runtimeFor(kind: string): KindRuntime {
  const r = runtimes.get(kind);
  if (!r) throw new Error(`pulumi-voiceagent: no provider for kind ${kind}; is the installed package older than the program?`);
  return r;
}

export { specs };
