import { z } from "zod";
import { readable } from "../../client/index.js";
import { defineFunction } from "../kit/function.js";
import { everyCurrent } from "./current-read.js";
import { AccountConnectionFound, accountConnectionFound } from "./current-shapes.js";

/** getAccountConnections: the account's connections (every page of /v1/account_connections/list), filtered. */
export const getAccountConnections = defineFunction({
  name: "getAccountConnections",
  doc:
    "Lists the account's account connections, optionally only those of one `type` (the current API, 2024). " +
    "Their OpenAI keys and Twilio auth tokens come back secret.",
  input: z.object({
    type: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "Only connections of this type (account_connection_openai, account_connection_twilio)." }),
  }),
  result: z.object({
    accountConnections: z
      .array(AccountConnectionFound)
      .meta({ description: "The matching account connections, in the order the service lists them." }),
  }),
  async run(client, { type }) {
    const all = readable(await everyCurrent(client, "account_connections", "getAccountConnections"));
    return { accountConnections: all.filter((c) => type === undefined || c.type === type).map(accountConnectionFound) };
  },
});
