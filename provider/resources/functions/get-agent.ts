import { z } from "zod";
import { UuidSchema } from "../../client/index.js";
import { defineFunction } from "../kit/function.js";
import { byKey } from "./read.js";
import { AgentFound, agentFound } from "./shapes.js";

/** getAgent: one agent by id (GET /v1/agents/, a documented route). */
export const getAgent = defineFunction({
  name: "getAgent",
  doc: "Looks up one agent of the account by its `id`. Its prompt comes back secret.",
  input: z.object({ id: UuidSchema.meta({ description: "The agent's id (a UUID)." }) }),
  result: AgentFound,
  async run(client, { id }) {
    return agentFound(await byKey(client.agents.get(id), "getAgent", `agent with id ${id}`));
  },
});
