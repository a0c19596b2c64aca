import { z } from "zod";
import { UuidSchema } from "../../client/index.js";
import { defineFunction } from "../kit/function.js";
import { currentById } from "./current-read.js";
import { PromptFound, promptFound } from "./current-shapes.js";

/** getPrompt: one prompt, by id (GET /v1/prompts; the current API). */
export const getPrompt = defineFunction({
  name: "getPrompt",
  doc: "Looks up one prompt of the account by its `id` (the current API, 2024). Its text comes back secret.",
  input: z.object({ id: UuidSchema.meta({ description: "The prompt's id (a UUID)." }) }),
  result: PromptFound,
  run: async (client, { id }) => promptFound(await currentById(client, "prompts", id, "getPrompt", "prompt")),
});
