import { z } from "zod";
import { readable } from "../../client/index.js";
import { defineFunction } from "../kit/function.js";
import { everyCurrent } from "./current-read.js";
import { VectorDatabaseFound, vectorDatabaseFound } from "./current-shapes.js";

/** getVectorDatabases: the account's vector databases (every page of /v1/vector_databases/list; the current API). */
export const getVectorDatabases = defineFunction({
  name: "getVectorDatabases",
  doc: "Lists the account's vector databases (the current API, 2024). Their API keys come back secret.",
  input: z.object({}),
  result: z.object({
    vectorDatabases: z
      .array(VectorDatabaseFound)
      .meta({ description: "The vector databases, in the order the service lists them." }),
  }),
  run: async (client) => ({
    vectorDatabases: readable(await everyCurrent(client, "vector_databases", "getVectorDatabases")).map(
      vectorDatabaseFound,
    ),
  }),
});
