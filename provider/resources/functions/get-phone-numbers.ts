import { z } from "zod";
import { defineFunction } from "../kit/function.js";
import { everyItem, readable } from "./read.js";
import { NumberFound, numberFound } from "./shapes.js";

/** getPhoneNumbers: the account's numbers (every page of /v1/numbers/list), filtered. */
export const getPhoneNumbers = defineFunction({
  name: "getPhoneNumbers",
  doc:
    "Lists the account's phone numbers, optionally only the `active` (or cancelled) ones, only the `bound` (or free) ones, " +
    "and only the `linked` ones (numbers of the team's own Twilio account, or only those the service sold), in the order " +
    "the service lists them: the first free number the service sold is `numbers[0]` of `{ active: true, bound: false, linked: false }`.",
  input: z.object({
    active: z.boolean().optional().meta({ description: "Only active numbers (true) or only cancelled ones (false)." }),
    bound: z
      .boolean()
      .optional()
      .meta({ description: "Only numbers bound to an agent (true) or only free ones (false)." }),
    linked: z.boolean().optional().meta({
      description:
        "Only numbers linked from the team's own Twilio account through an account connection (true), or only those the service sold (false).",
    }),
  }),
  result: z.object({
    numbers: z.array(NumberFound).meta({ description: "The matching numbers, in the order the service lists them." }),
  }),
  async run(client, { active, bound, linked }) {
    const all = readable(await everyItem(client, "numbers", "getPhoneNumbers"));
    const found = all.map(numberFound);
    return {
      numbers: found.filter(
        (n) =>
          (active === undefined || n.active === active) &&
          (bound === undefined || (n.inboundAgent !== null) === bound) &&
          (linked === undefined || n.linked === linked),
      ),
    };
  },
});
