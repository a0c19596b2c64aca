import { knownString } from "../resource-view.js";
import { resourceRule } from "../rule.js";

/** The rule's settings. */
export interface AgentTextSizeConfig {
  maxPromptLength: number;
  maxInitialMessageLength: number;
}

/**
 * Defaults well under the service's own limits (100 000 and 10 000 characters, which the provider
 * enforces): a prompt past a few pages is usually pasted by mistake, and long prompts cost on every call.
 */
export const AGENT_TEXT_DEFAULTS: AgentTextSizeConfig = { maxPromptLength: 8000, maxInitialMessageLength: 500 };

/** The two texts an agent speaks from, each under the team's limit. */
export const agentTextSize = resourceRule<AgentTextSizeConfig>({
  name: "voiceagent-agent-text-size",
  kind: "Agent",
  description:
    "An Agent's prompt and initialMessage must stay within maxPromptLength and maxInitialMessageLength characters.",
  enforcementLevel: "mandatory",
  config: {
    maxPromptLength: {
      type: "integer",
      minimum: 1,
      default: AGENT_TEXT_DEFAULTS.maxPromptLength,
      description: "Characters of a prompt, at most.",
    },
    maxInitialMessageLength: {
      type: "integer",
      minimum: 0,
      default: AGENT_TEXT_DEFAULTS.maxInitialMessageLength,
      description: "Characters of an opening message, at most.",
    },
  },
  check: ({ props }, config) => {
    const limits = { ...AGENT_TEXT_DEFAULTS, ...config };
    // Prompts are usually secrets: the message gives the length, never the text.
    const over = (field: string, max: number) => {
      const text = knownString(props, field);
      return text !== undefined && text.length > max
        ? [`${field} is ${text.length} characters, over the limit of ${max}`]
        : [];
    };
    return [...over("prompt", limits.maxPromptLength), ...over("initialMessage", limits.maxInitialMessageLength)];
  },
});
