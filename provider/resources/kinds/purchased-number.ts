import { z } from "zod";
import { ApiNotFoundError, E164Schema, PhoneNumberBuySchema, type PhoneNumber, type PhoneNumberBuy } from "../../client/index.js";
import { declareNumber, isDeclared } from "../kit/claims.js";
import { PartialCreateError } from "../kit/errors.js";
import { defineKind } from "../kit/kind.js";
import { note } from "../kit/notes.js";
import { ownerOutput } from "../kit/owner.js";

/** The area code of a North American number (+1AAA...), if it is one. */
const areaOf = (number: string): string | undefined => /^\+1(\d{3})\d{7}$/.exec(number)?.[1];

/**
 * PurchasedNumber: a number the account owns because the program says so. Create buys one
 * (numbers/buy, exactly once) or, with `number`, takes over one the account already has; destroy
 * CANCELS it (numbers/cancel), which cannot be undone: the number is lost for good. A delete never
 * cancels a number the program still declares (a rename of an adopting resource, a binding still
 * pointing at it), nor does a pending delete of an interrupted run.
 */
export const purchasedNumberKind = defineKind<PhoneNumber, NonNullable<PhoneNumberBuy>>()({
  kind: "PurchasedNumber",
  account: "numbers",
  doc:
    "A phone number the account owns because the program says so: create buys one (numbers/buy, exactly once " +
    "even when the service loses its answer), or takes over `number`; **destroy cancels it (numbers/cancel), which " +
    "cannot be undone**: the number is gone for good. Guard production numbers with `protect: true`. A delete never " +
    "cancels a number the program still declares, in another PurchasedNumber or in a `PhoneNumber` binding.",
  example:
    'const main = new PurchasedNumber("main", { areaCode: "415" }, { protect: true });\n' +
    'new PhoneNumber("main-line", { number: main.number, inboundAgent: support.id });',
  input: z.object({
    areaCode: z.string().regex(/^[2-9]\d{2}$/, { error: "must be a 3-digit area code such as 415" }).optional(),
    number: E164Schema.optional(),
  }),
  fields: {
    // Echoed, not derived from the number: a number adopted as a secret must not leak its area code.
    areaCode: { doc: 'Buy a number in this 3-digit area code (e.g. "415"). Unset: any area. Changing it replaces.', wire: "area_code", read: (_n, recorded) => recorded.areaCode, replaces: true, keepWhenUnset: true },
    number: {
      doc:
        "The number, E.164. Set, the account's number to take over instead of buying one (destroy will then cancel it); " +
        "unset, the one bought. Changing it replaces.",
      reported: true,
      wire: null, read: (n) => n.number, replaces: true, keepWhenUnset: true },
  },
  // GET /v1/numbers is an extension route: without it, refresh keeps what was recorded.
  readRoutes: "numbers",
  outputs: {
    active: { type: "boolean", doc: "Whether the number is active (false once cancelled).", read: (n) => n.active },
    userId: ownerOutput(),
  },
  refine: (inputs) =>
    inputs.number && inputs.areaCode && areaOf(inputs.number) !== inputs.areaCode
      ? [{ property: "areaCode", reason: "areaCode does not match the area code of number; give one or the other" }]
      : [],
  declared: (inputs) => {
    if (inputs.number) declareNumber(inputs.number);
  },
  async create(client, inputs, bodies) {
    if (!inputs.number) {
      const bought = await client.numbers.buy(PhoneNumberBuySchema.parse(bodies.create));
      if (inputs.areaCode && areaOf(bought.number) !== inputs.areaCode) {
        throw new PartialCreateError(
          `voiceagent:PurchasedNumber create: the service bought ${bought.id} outside the area code asked for. ` +
            "It is tracked in the state (destroy cancels it); check the service's numbers/buy",
          bought.id,
          { number: bought.number, active: bought.active, userId: bought.user_id },
          ["area code not kept"],
        );
      }
      return bought;
    }
    const owned = await client.numbers.get(inputs.number).catch((err: unknown) => {
      if (err instanceof ApiNotFoundError) {
        throw new Error("number is not one of this account's numbers; nothing was bought or changed. Leave number unset to buy one", { cause: err });
      }
      throw err;
    });
    if (!owned.active) throw new Error("number was cancelled and can never be used again; nothing was changed. Leave number unset to buy one");
    return owned;
  },
  async read(client, _id, recorded) {
    if (!recorded.number) return undefined;
    const n = await client.numbers.get(recorded.number);
    return n.active ? n : undefined;
  },
  async delete(client, id, recorded) {
    if (!recorded.number) return;
    if (isDeclared(recorded.number)) {
      note(`voiceagent:PurchasedNumber ${id}: not cancelled: the program still declares this number`);
      return;
    }
    await client.numbers.cancel(recorded.number);
  },
});
