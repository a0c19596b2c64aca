import { z } from "zod";
import {
  ApiNotFoundError,
  E164Schema,
  PhoneNumberBuySchema,
  type PhoneNumber,
  type PhoneNumberBuy,
  type VoiceAgentClient,
} from "../../client/index.js";
import { claimOf, declareNumber, unseenOwner } from "../kit/claims.js";
import { inputFailure } from "../kit/check.js";
import { PartialCreateError } from "../kit/errors.js";
import { note } from "../kit/notes.js";
import { ownerOutput } from "../kit/owner.js";
import { defineKind } from "../kit/kind.js";

/** The area code of a North American number (+1AAA...), if it is one. */
const areaOf = (number: string): string | undefined => /^\+1(\d{3})\d{7}$/.exec(number)?.[1];

/** The account's number with this service id, found in the list (undefined when it is not there). */
async function byId(client: VoiceAgentClient, id: string): Promise<PhoneNumber | undefined> {
  return (await client.numbers.list.all()).find((n) => n.id === id);
}

/**
 * PurchasedNumber: a number the account owns because the program says so. Create buys one
 * (numbers/buy, exactly once) or, with `number`, takes over one the account already has; destroy
 * CANCELS it (numbers/cancel), which cannot be undone: the number is lost for good. A delete never
 * cancels a number the program declares in another PurchasedNumber (a rename of an adopting
 * resource, a pending delete of an interrupted run); a binding of the number does not keep it.
 */
export const purchasedNumberKind = defineKind<PhoneNumber, NonNullable<PhoneNumberBuy>>()({
  kind: "PurchasedNumber",
  collection: "numbers",
  recover: "number",
  doc:
    "A phone number the account owns because the program says so: create buys one (numbers/buy, exactly once " +
    "even when the service loses its answer), or takes over `number`; **destroy cancels it (numbers/cancel), which " +
    "cannot be undone**: the number is gone for good. Guard production numbers with the protect resource option. A delete never " +
    "cancels a number another PurchasedNumber of the program still declares (a rename or a move); a `PhoneNumber` " +
    "binding of the number does not keep it bought.",
  importId: "the number, E.164 (e.g. +15550010001); destroying it then cancels the number",
  input: z.object({
    areaCode: z
      .string()
      .regex(/^[2-9]\d{2}$/, { error: "must be a 3-digit area code such as 415" })
      .optional(),
    number: E164Schema.optional(),
  }),
  fields: {
    // Recorded as an echo, never derived from the number: a number adopted as a secret must not
    // leak its area code into a plain output. Compared with the live number's, though: naming the
    // area code an adopted number is already in is no change (a replace would cancel it).
    areaCode: {
      doc: 'Buy a number in this 3-digit area code (e.g. "415"). Unset: any area. Changing it to another area replaces.',
      wire: "area_code",
      read: (_n, recorded) => recorded.areaCode,
      live: (recorded) => (recorded.number ? areaOf(recorded.number) : undefined),
      replaces: true,
      keepWhenUnset: true,
    },
    number: {
      doc:
        "The number, E.164. Set, the account's number to take over instead of buying one (destroy will then cancel it); " +
        "unset, the one bought. Changing it replaces.",
      reported: true,
      wire: null,
      read: (n) => n.number,
      replaces: true,
      keepWhenUnset: true,
    },
  },
  // GET /v1/numbers is an extension route: without it, refresh keeps what was recorded.
  extensionReads: true,
  outputs: {
    // The current API may leave `active` null: only false means cancelled.
    active: {
      type: "boolean",
      doc: "Whether the number is active (false once cancelled).",
      read: (n) => n.active !== false,
    },
    userId: ownerOutput(),
  },
  refine: (inputs) =>
    inputs.number && inputs.areaCode && areaOf(inputs.number) !== inputs.areaCode
      ? [inputFailure("areaCode does not match the area code of number; give one or the other")]
      : [],
  declared: (inputs) => {
    if (inputs.number) declareNumber("PurchasedNumber", inputs.number);
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
        throw new Error(
          "number is not one of this account's numbers; nothing was bought or changed. Leave number unset to buy one",
          { cause: err },
        );
      }
      throw err;
    });
    if (owned.active === false)
      throw new Error(
        "number was cancelled and can never be used again; nothing was changed. Leave number unset to buy one",
      );
    return owned;
  },
  async read(client, id, recorded) {
    // `pulumi import` names a number by its E.164 number and records nothing yet; a purchase whose
    // answer was unreadable has its id recorded but not its number.
    const number = recorded.number ?? (E164Schema.safeParse(id).success ? id : undefined);
    const n = number ? await client.numbers.get(number) : await byId(client, id);
    return n && n.active !== false ? n : undefined;
  },
  async delete(client, id, recorded) {
    // A purchase whose answer was unreadable has its id recorded but not its number.
    const number =
      recorded.number ??
      (
        await byId(client, id).catch((err: unknown) => {
          throw new Error(
            `nothing was cancelled: the number of ${id} was never recorded and the account's numbers could not be listed to find it. ` +
              "Run `pulumi refresh` once the service lists numbers, or cancel it on the service and run `pulumi state delete <urn>`",
            { cause: err },
          );
        })
      )?.number;
    if (!number) return;
    // Only another purchase of the number holds it: a binding of it does not keep it bought.
    const claim = claimOf("PurchasedNumber", number);
    if (claim.status === "declared") {
      note(
        `voiceagent:PurchasedNumber ${id}: not cancelled: the program declares this number in another PurchasedNumber`,
      );
      return;
    }
    if (claim.status === "unseen") throw unseenOwner("PurchasedNumber", claim.flag, "cancel");
    await client.numbers.cancel(number);
  },
});
