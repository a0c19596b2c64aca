import { z } from "zod";
import { defineFunction } from "../kit/function.js";
import { everyItem, readable } from "./read.js";
import { ActionFound, actionFound } from "./shapes.js";

/** getActions: the account's actions (every page of /v1/actions/list), filtered. */
export const getActions = defineFunction({
  name: "getActions",
  doc: "Lists the account's actions, optionally only those of one `type`.",
  input: z.object({
    type: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "Only actions of this type (action_end_conversation, action_external, ...)." }),
  }),
  result: z.object({
    actions: z.array(ActionFound).meta({ description: "The matching actions, in the order the service lists them." }),
  }),
  async run(client, { type }) {
    const all = readable(await everyItem(client, "actions", "getActions"));
    return { actions: all.filter((a) => type === undefined || a.type === type).map(actionFound) };
  },
});
