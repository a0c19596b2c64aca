import { z } from "zod";
import { UuidSchema } from "../../client/index.js";
import { defineFunction } from "../kit/function.js";
import { currentById, everyCurrent } from "./current-read.js";
import { VectorDatabaseFound, vectorDatabaseFound } from "./current-shapes.js";
import { exactlyOne } from "./read.js";

/** getVectorDatabase: one vector database, by id (GET /v1/vector_databases) or by index (the list). */
export const getVectorDatabase = defineFunction({
  name: "getVectorDatabase",
  doc:
    "Looks up one vector database of the account by its `id`, or by its Pinecone `index` (exactly one must use it; " +
    "the current API, 2024). Its API key comes back secret.",
  input: z
    .object({
      id: UuidSchema.optional().meta({ description: "The vector database's id (a UUID)." }),
      index: z
        .string()
        .min(1, { error: "must not be empty" })
        .optional()
        .meta({ description: "The Pinecone index's name." }),
    })
    .refine((a) => (a.id === undefined) !== (a.index === undefined), { error: "set exactly one of id and index" }),
  result: VectorDatabaseFound,
  async run(client, { id, index }) {
    const fn = "getVectorDatabase";
    if (id !== undefined)
      return vectorDatabaseFound(await currentById(client, "vector_databases", id, fn, "vector database"));
    const all = await everyCurrent(client, "vector_databases", fn);
    return vectorDatabaseFound(exactlyOne(all, (v) => v.index === index, fn, `vector database of index "${index}"`));
  },
});
