import { z } from "zod";
import { UuidSchema } from "../../client/index.js";
import { defineFunction } from "../kit/function.js";
import { everyItem, readable } from "./read.js";
import { AgentFound, agentFound } from "./shapes.js";

/** getAgents: the account's agents (every page of /v1/agents/list), filtered. */
export const getAgents = defineFunction({
  name: "getAgents",
  doc:
    "Lists the account's agents, optionally only those speaking with one `voice` or sending events to one " +
    "`webhook`. Their prompts come back secret.",
  input: z.object({
    voice: UuidSchema.optional().meta({ description: "Only agents speaking with this voice (its id)." }),
    webhook: UuidSchema.optional().meta({ description: "Only agents whose events go to this webhook (its id)." }),
  }),
  result: z.object({
    agents: z.array(AgentFound).meta({ description: "The matching agents, in the order the service lists them." }),
  }),
  async run(client, { voice, webhook }) {
    const all = readable(await everyItem(client, "agents", "getAgents"));
    return {
      agents: all
        .filter(
          (a) => (voice === undefined || a.voice.id === voice) && (webhook === undefined || a.webhook?.id === webhook),
        )
        .map(agentFound),
    };
  },
});
