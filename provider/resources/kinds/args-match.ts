// Compile-time only: each resource's public Args (plain TypeScript, so a user's type-check never
// reaches zod) must name exactly the properties of its kind's input schema. A property added to a
// kind and not to its Args, or the other way round, fails the build here.
import type { z } from "zod";
import type { ActionArgs } from "../action.js";
import type { AgentArgs } from "../agent.js";
import type { CallArgs } from "../call.js";
import type { PhoneNumberArgs } from "../phone-number.js";
import type { PurchasedNumberArgs } from "../purchased-number.js";
import type { VoiceArgs } from "../voice.js";
import type { WebhookArgs } from "../webhook.js";
import type { actionKind } from "./action.js";
import type { agentKind } from "./agent.js";
import type { callKind } from "./call.js";
import type { phoneNumberKind } from "./phone-number.js";
import type { purchasedNumberKind } from "./purchased-number.js";
import type { voiceKind } from "./voice.js";
import type { webhookKind } from "./webhook.js";

type KeysOf<K extends { input: z.ZodType }> = keyof z.input<K["input"]>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

/** One line per kind; `true` when its Args and its input schema have the same properties. */
export type ArgsMatchKinds = [
  Assert<Same<keyof AgentArgs, KeysOf<typeof agentKind>>>,
  Assert<Same<keyof VoiceArgs, KeysOf<typeof voiceKind>>>,
  Assert<Same<keyof ActionArgs, KeysOf<typeof actionKind>>>,
  Assert<Same<keyof WebhookArgs, KeysOf<typeof webhookKind>>>,
  Assert<Same<keyof PhoneNumberArgs, KeysOf<typeof phoneNumberKind>>>,
  Assert<Same<keyof PurchasedNumberArgs, KeysOf<typeof purchasedNumberKind>>>,
  Assert<Same<keyof CallArgs, KeysOf<typeof callKind>>>,
];
