import { z } from "zod";
import { endpoints, UuidSchema } from "../../client/index.js";
import { defineFunction } from "../kit/function.js";
import { byKey, needsRoutes } from "./read.js";
import { CallFound, callFound } from "./shapes.js";

/** getCall: one call by id (GET /v1/calls). */
export const getCall = defineFunction({
  name: "getCall",
  doc: "Looks up one call by its `id`: its status, whether a recording is available, and its transcript and error message (both secret).",
  input: z.object({ id: UuidSchema.meta({ description: "The call's id (a UUID)." }) }),
  result: CallFound,
  async run(client, { id }) {
    await needsRoutes(client, "calls", "getCall", endpoints.getCall);
    return callFound(await byKey(client.calls.get(id), "getCall", `call with id ${id}`));
  },
});
