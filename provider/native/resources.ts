// The seven kinds on the native provider: the same names, arguments and outputs as the dynamic
// classes (their types are reused, not restated); each class is its type token and nothing else.
import * as pulumi from "@pulumi/pulumi";
import type {
  ActionArgs,
  ActionOutputs,
  AgentArgs,
  AgentOutputs,
  CallArgs,
  CallOutputs,
  OutputsOf,
  PhoneNumberArgs,
  PhoneNumberOutputs,
  PurchasedNumberArgs,
  PurchasedNumberOutputs,
  VoiceArgs,
  VoiceOutputs,
  WebhookArgs,
  WebhookOutputs,
} from "../resources/index.js";
import { NativeResource } from "./base.js";

// Each class's outputs are declared by merging an interface into it, as on the dynamic classes.

export interface Agent extends OutputsOf<AgentOutputs> {}
/** A voice agent (`voiceagent:index:Agent`); the service has no delete: destroy forgets it. */
export class Agent extends NativeResource {
  constructor(name: string, args: AgentArgs, opts?: pulumi.CustomResourceOptions) {
    super("Agent", name, args, opts);
  }
}

export interface Voice extends OutputsOf<VoiceOutputs> {}
/** A voice (`voiceagent:index:Voice`); destroy forgets it. */
export class Voice extends NativeResource {
  constructor(name: string, args: VoiceArgs, opts?: pulumi.CustomResourceOptions) {
    super("Voice", name, args, opts);
  }
}

export interface Action extends OutputsOf<ActionOutputs> {}
/** Something an agent can do during a call (`voiceagent:index:Action`); destroy forgets it. */
export class Action extends NativeResource {
  constructor(name: string, args: ActionArgs, opts?: pulumi.CustomResourceOptions) {
    super("Action", name, args, opts);
  }
}

export interface Webhook extends OutputsOf<WebhookOutputs> {}
/** Where an agent's events are delivered (`voiceagent:index:Webhook`); destroy forgets it. */
export class Webhook extends NativeResource {
  constructor(name: string, args: WebhookArgs, opts?: pulumi.CustomResourceOptions) {
    super("Webhook", name, args, opts);
  }
}

export interface PhoneNumber extends OutputsOf<PhoneNumberOutputs> {}
/** The inbound binding of a number the account owns (`voiceagent:index:PhoneNumber`); destroy unbinds, never cancels. */
export class PhoneNumber extends NativeResource {
  constructor(name: string, args: PhoneNumberArgs, opts?: pulumi.CustomResourceOptions) {
    super("PhoneNumber", name, args, opts);
  }
}

export interface PurchasedNumber extends OutputsOf<PurchasedNumberOutputs> {}
/** A number bought by the program (`voiceagent:index:PurchasedNumber`): **destroy cancels it**. */
export class PurchasedNumber extends NativeResource {
  constructor(name: string, args: PurchasedNumberArgs, opts?: pulumi.CustomResourceOptions) {
    super("PurchasedNumber", name, args, opts);
  }
}

export interface Call extends OutputsOf<CallOutputs> {}
/** A phone call, placed at most once (`voiceagent:index:Call`); `transcript` and `errorMessage` are secret outputs. */
export class Call extends NativeResource {
  constructor(name: string, args: CallArgs, opts?: pulumi.CustomResourceOptions) {
    super("Call", name, args, opts);
  }
}
