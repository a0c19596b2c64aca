import { LANGUAGES } from "pulumi-voiceagent/schemas";
import { fieldOf } from "../resource-view.js";
import { resourceRule } from "../rule.js";

/** A language code the service knows. */
type Language = (typeof LANGUAGES)[number];

/** The rule's settings. */
export interface AgentLanguagesConfig {
  /** The languages the team's agents may speak (their callers, its reviewers, its support). */
  allowedLanguages: Language[];
}

/** An Agent without a language speaks English: the service's default (the current API's AgentParams). */
const DEFAULT_LANGUAGE: Language = "en";

/** Agents only in the languages the team can review and support: not configured, any language passes. */
export const agentLanguages = resourceRule<AgentLanguagesConfig>({
  name: "voiceagent-agent-languages",
  kind: "Agent",
  description: "An Agent's language must be one that allowedLanguages lists (an Agent without one speaks en).",
  enforcementLevel: "mandatory",
  config: {
    allowedLanguages: {
      type: "array",
      items: { type: "string", enum: [...LANGUAGES] },
      description: "Language codes (en, es, de, ...); an Agent that sets none speaks en; unset: any.",
    },
  },
  check: ({ props }, { allowedLanguages }) => {
    const f = fieldOf(props, "language");
    if (!allowedLanguages || f.state === "unknown") return [];
    const language = f.state === "known" ? String(f.value) : DEFAULT_LANGUAGE;
    return allowedLanguages.some((l) => l === language)
      ? []
      : [`language ${language} is not one of allowedLanguages (${allowedLanguages.join(", ") || "none"})`];
  },
});
