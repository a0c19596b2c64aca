import { z } from "zod";
import { defineFunction } from "../kit/function.js";
import { isRouteMissing } from "../../client/index.js";
import type { CollectionName } from "../../schemas/index.js";
import { ExplainedError } from "../kit/errors.js";

/** Where the account's owner shows: every object carries its owner's id, and a seeded account always has voices and numbers. */
const OWNED: readonly CollectionName[] = ["voices", "numbers", "agents", "actions", "webhooks"];

/** getAccount: the owner of the token's account. */
export const getAccount = defineFunction({
  name: "getAccount",
  doc:
    "The account the provider's token belongs to: its owner's `userId`. The service has no route for the account itself, " +
    "so the owner is read from the first object the account lists (the current API's usage report is `getUsage`).",
  input: z.object({}),
  result: z.object({ userId: z.string().meta({ description: "The id of the user who owns the account." }) }),
  async run(client) {
    const missing: string[] = [];
    for (const collection of OWNED) {
      // One object is enough: its owner is the account's.
      const page = await client[collection].list.page(1, 1).catch((err: unknown) => {
        if (!isRouteMissing(err)) throw err;
        missing.push(`GET /v1/${collection}/list`);
        return undefined;
      });
      const first = page?.items[0];
      if (first) return { userId: first.user_id };
    }
    const why = missing.length ? ` (this service has no ${missing.join(", ")} route)` : "";
    throw new ExplainedError(
      `getAccount: found no voice, number, agent, action or webhook on this account to read its owner from${why}; nothing was changed`,
      { code: "E_NOT_FOUND", mayHaveActed: false },
    );
  },
});
