import { z } from "zod";
import { readable } from "../../client/index.js";
import { defineFunction } from "../kit/function.js";
import { everyCurrent } from "./current-read.js";
import { PromptFound, promptFound } from "./current-shapes.js";

/** getPrompts: the account's prompts (every page of /v1/prompts/list; the current API). */
export const getPrompts = defineFunction({
  name: "getPrompts",
  doc: "Lists the account's prompts (the current API, 2024). Their texts come back secret.",
  input: z.object({}),
  result: z.object({
    prompts: z.array(PromptFound).meta({ description: "The prompts, in the order the service lists them." }),
  }),
  run: async (client) => ({
    prompts: readable(await everyCurrent(client, "prompts", "getPrompts")).map(promptFound),
  }),
});
