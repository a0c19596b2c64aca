/**
 * What the serialized provider shims load, by package name, in the provider process:
 * `import("pulumi-voiceagent/providers")`. Its `runtimeFor(kind)` and the runtime's method
 * signatures are a stable contract with every shim ever written into a stack's state.
 */
import type { z } from "zod";
import { bodiesOf } from "./kit/derive.js";
import type { KindDef, Props } from "./kit/kind.js";
import { kindRuntime, type KindRuntime } from "./kit/runtime.js";
import { actionKind } from "./kinds/action.js";
import { agentKind } from "./kinds/agent.js";
import { callKind } from "./kinds/call.js";
import { phoneNumberKind } from "./kinds/phone-number.js";
import { purchasedNumberKind } from "./kinds/purchased-number.js";
import { voiceKind } from "./kinds/voice.js";
import { webhookKind } from "./kinds/webhook.js";

const runtimes = new Map<string, KindRuntime>();
const createBodies = new Map<string, (inputs: Props) => Props | undefined>();

function register<S extends z.ZodRawShape, R extends { id: string }, W>(def: KindDef<S, R, W>): void {
  runtimes.set(def.kind, kindRuntime(def));
  createBodies.set(def.kind, (inputs) => {
    const parsed = def.input.safeParse(inputs);
    return parsed.success ? bodiesOf(def, parsed.data).create : undefined;
  });
}
register(agentKind);
register(voiceKind);
register(phoneNumberKind);
register(purchasedNumberKind);
register(callKind);
register(actionKind);
register(webhookKind);

/** The kinds this release serves, by Pulumi type name. */
export const KINDS: readonly string[] = [...runtimes.keys()];

/** The runtime of one resource kind ("Agent", "Voice", ...). */
export function runtimeFor(kind: string): KindRuntime {
  const r = runtimes.get(kind);
  if (!r) throw new Error(`pulumi-voiceagent: no provider for kind ${kind}; is the installed package older than the program?`);
  return r;
}

/**
 * The body a create of `kind` sends for these recorded inputs (the kit's own derivation), or
 * undefined when the inputs do not parse. `voiceagent recover` matches it against the account to
 * find what an interrupted `up` made.
 */
export function createBodyFor(kind: string, inputs: Props): Props | undefined {
  return createBodies.get(kind)?.(inputs);
}
