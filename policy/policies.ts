// Every rule of the pack, in the order the CLI lists them. A rule is a file under rules/ and a
// line here; docs/policy-pack.md describes each with its config and what it prints.
import type { Policies } from "@pulumi/policy";
import { accountConnectionTypes } from "./rules/account-connection-types.js";
import { agentLanguages } from "./rules/agent-languages.js";
import { agentLlmModels } from "./rules/agent-llm-models.js";
import { agentLlmTemperature } from "./rules/agent-llm-temperature.js";
import { agentTextSize } from "./rules/agent-text-size.js";
import { agentWebhook } from "./rules/agent-webhook.js";
import { callDestinations } from "./rules/call-destinations.js";
import { externalActionUrl } from "./rules/external-action-url.js";
import { protectedPurchasedNumbers } from "./rules/protected-purchased-numbers.js";
import { purchasedNumberCap } from "./rules/purchased-number-cap.js";
import { voiceTypes } from "./rules/voice-types.js";
import { webhookHosts } from "./rules/webhook-hosts.js";
import { webhookHttps } from "./rules/webhook-https.js";

/** The pack's name: what `--policy-pack-config` files and the CLI's output call it. */
export const PACK_NAME = "voiceagent";

/** The pack's policies (importable without serving them, for tests and for packs built on this one). */
export const policies: Policies = [
  protectedPurchasedNumbers,
  purchasedNumberCap,
  callDestinations,
  agentWebhook,
  webhookHttps,
  webhookHosts,
  externalActionUrl,
  agentTextSize,
  voiceTypes,
  agentLanguages,
  agentLlmModels,
  agentLlmTemperature,
  accountConnectionTypes,
];
