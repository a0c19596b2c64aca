import { LLM_FALLBACK_PROVIDERS } from "pulumi-voiceagent/schemas";
import { type Field, fieldOf } from "../resource-view.js";
import { resourceRule } from "../rule.js";

/** A provider of an agent's fallback LLM. */
type FallbackProvider = (typeof LLM_FALLBACK_PROVIDERS)[number];

/** The rule's settings. */
export interface AgentLlmModelsConfig {
  /** Model names an agent may run on: its main model and its fallback's. */
  allowedModels: string[];
  /** Providers an agent's fallback LLM may come from. */
  allowedFallbackProviders: FallbackProvider[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A nested property (llmFallback.modelName): unknown when its parent or itself is not known yet. */
function nestedField(parent: Field, name: string): Field {
  if (parent.state !== "known") return parent;
  return isRecord(parent.value) ? fieldOf(parent.value, name) : { state: "unset" };
}

/**
 * Agents only on the models the team has approved (cost, data processing terms, behaviour it has
 * tested): each allowlist not configured lets anything through. An agent that overrides no model runs
 * on the service's default one, which this rule does not judge.
 */
export const agentLlmModels = resourceRule<AgentLlmModelsConfig>({
  name: "voiceagent-agent-llm-models",
  kind: "Agent",
  description:
    "An Agent's openaiModelNameOverride and llmFallback.modelName must be models that allowedModels lists, " +
    "and its llmFallback.provider one that allowedFallbackProviders lists.",
  enforcementLevel: "mandatory",
  config: {
    allowedModels: {
      type: "array",
      items: { type: "string", minLength: 1 },
      description: "Model names (gpt-4o, gpt-4o-mini, ...), exactly as the Agent gives them; unset: any.",
    },
    allowedFallbackProviders: {
      type: "array",
      items: { type: "string", enum: [...LLM_FALLBACK_PROVIDERS] },
      description: "Providers of a fallback LLM (openai, azure); unset: any.",
    },
  },
  check: ({ props }, { allowedModels, allowedFallbackProviders }) => {
    const fallback = fieldOf(props, "llmFallback");
    // Model names are not secrets: the message gives the name, so a reviewer sees what to change.
    const notIn = (field: string, f: Field, allowed: readonly string[] | undefined, setting: string) =>
      allowed && f.state === "known" && !allowed.includes(String(f.value))
        ? [`${field} ${String(f.value)} is not one of ${setting} (${allowed.join(", ") || "none"})`]
        : [];
    return [
      ...notIn("openaiModelNameOverride", fieldOf(props, "openaiModelNameOverride"), allowedModels, "allowedModels"),
      ...notIn("llmFallback.modelName", nestedField(fallback, "modelName"), allowedModels, "allowedModels"),
      ...notIn(
        "llmFallback.provider",
        nestedField(fallback, "provider"),
        allowedFallbackProviders,
        "allowedFallbackProviders",
      ),
    ];
  },
});
