// The trial field of trial-field.test.ts, and the Agent kind as it was before that field was added:
// its definition without it, the one place it is declared.
import { agentKind } from "../../provider/resources/kinds/agent.js";
import { defineKind } from "../../provider/resources/kit/kind.js";
import type { Agent, AgentWrite } from "../../provider/schemas/index.js";

/** The trial field: a current-API boolean of the Agent, and its wire name. */
export const FIELD = "noiseSuppression";
export const WIRE = "noise_suppression";

/** The Agent kind without the trial field. */
export function withoutTheField() {
  const { [FIELD]: _field, ...fieldsBefore } = agentKind.fields;
  return defineKind<Agent, AgentWrite>()({
    ...agentKind,
    input: agentKind.input.omit({ [FIELD]: true }),
    fields: fieldsBefore,
    adopt: "agentId",
    autoname: { ...agentKind.autoname, property: "name" },
  });
}
