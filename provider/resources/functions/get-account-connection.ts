import { z } from "zod";
import { UuidSchema } from "../../client/index.js";
import { defineFunction } from "../kit/function.js";
import { currentById } from "./current-read.js";
import { AccountConnectionFound, accountConnectionFound } from "./current-shapes.js";

/** getAccountConnection: one account connection, by id (GET /v1/account_connections; the current API). */
export const getAccountConnection = defineFunction({
  name: "getAccountConnection",
  doc:
    "Looks up one account connection of the account by its `id` (the current API, 2024). Its OpenAI key and " +
    "Twilio auth token come back secret.",
  input: z.object({ id: UuidSchema.meta({ description: "The account connection's id (a UUID)." }) }),
  result: AccountConnectionFound,
  run: async (client, { id }) =>
    accountConnectionFound(
      await currentById(client, "account_connections", id, "getAccountConnection", "account connection"),
    ),
});
