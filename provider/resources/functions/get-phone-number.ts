import { z } from "zod";
import { E164Schema, endpoints } from "../../client/index.js";
import { defineFunction } from "../kit/function.js";
import { byKey, needsRoutes } from "./read.js";
import { NumberFound, numberFound } from "./shapes.js";

/** getPhoneNumber: one of the account's numbers (GET /v1/numbers?phone_number=). */
export const getPhoneNumber = defineFunction({
  name: "getPhoneNumber",
  doc:
    "Looks up one phone number of the account by its `number` (E.164): its id, whether it is active, the agent bound to it, " +
    "and whether it is linked from the team's own Twilio account (and through which account connection).",
  input: z.object({ number: E164Schema.meta({ description: "The number, E.164 (e.g. +15551234567)." }) }),
  result: NumberFound,
  async run(client, { number }) {
    await needsRoutes(client, "numbers", "getPhoneNumber", endpoints.getNumber);
    return numberFound(await byKey(client.numbers.get(number), "getPhoneNumber", `phone number ${number}`));
  },
});
