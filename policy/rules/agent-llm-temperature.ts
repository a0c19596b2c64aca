import { fieldOf } from "../resource-view.js";
import { resourceRule } from "../rule.js";

/** The rule's settings. */
export interface AgentLlmTemperatureConfig {
  minTemperature: number;
  maxTemperature: number;
}

/**
 * An agent's llmTemperature within the team's bounds: a hot agent improvises on the phone, a cold
 * one repeats itself. Each bound not configured restricts nothing (the service's own range, 0 to 2,
 * is the provider's to enforce); an agent that sets no temperature runs on the service's default.
 */
export const agentLlmTemperature = resourceRule<AgentLlmTemperatureConfig>({
  name: "voiceagent-agent-llm-temperature",
  kind: "Agent",
  description: "An Agent's llmTemperature must lie between minTemperature and maxTemperature.",
  enforcementLevel: "mandatory",
  config: {
    minTemperature: { type: "number", minimum: 0, description: "The lowest llmTemperature allowed; unset: no bound." },
    maxTemperature: { type: "number", minimum: 0, description: "The highest llmTemperature allowed; unset: no bound." },
  },
  check: ({ props }, { minTemperature, maxTemperature }) => {
    const f = fieldOf(props, "llmTemperature");
    if (f.state !== "known" || typeof f.value !== "number") return [];
    const t = f.value;
    if (minTemperature !== undefined && t < minTemperature)
      return [`llmTemperature ${t} is below minTemperature ${minTemperature}`];
    if (maxTemperature !== undefined && t > maxTemperature)
      return [`llmTemperature ${t} is above maxTemperature ${maxTemperature}`];
    return [];
  },
});
