import { z } from "zod";
import { defineFunction } from "../kit/function.js";
import { everyItem, readable } from "./read.js";
import { NumberFound, numberFound } from "./shapes.js";

/** getPhoneNumbers: the account's numbers (every page of /v1/numbers/list), filtered. */
export const getPhoneNumbers = defineFunction({
  name: "getPhoneNumbers",
  doc:
    "Lists the account's phone numbers, optionally only the `active` (or cancelled) ones and only the `bound` (or free) ones, " +
    "in the order the service lists them: the first free number is `numbers[0]` of `{ active: true, bound: false }`.",
  input: z.object({
    active: z.boolean().optional().meta({ description: "Only active numbers (true) or only cancelled ones (false)." }),
    bound: z
      .boolean()
      .optional()
      .meta({ description: "Only numbers bound to an agent (true) or only free ones (false)." }),
  }),
  result: z.object({
    numbers: z.array(NumberFound).meta({ description: "The matching numbers, in the order the service lists them." }),
  }),
  async run(client, { active, bound }) {
    const all = readable(await everyItem(client, "numbers", "getPhoneNumbers"));
    const isBound = (n: (typeof all)[number]) => Boolean(n.inbound_agent);
    return {
      numbers: all
        .filter((n) => (active === undefined || n.active === active) && (bound === undefined || isBound(n) === bound))
        .map(numberFound),
    };
  },
});
