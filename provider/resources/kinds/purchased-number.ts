import { z } from "zod";
import {
  ApiNotFoundError,
  E164Schema,
  lookForId,
  PhoneNumberBuySchema,
  type PhoneNumber,
  type PhoneNumberBuy,
  type VoiceAgentClient,
} from "../../client/index.js";
import { unseenHolder } from "../../coordination/claims.js";
import { inputFailure } from "../kit/check.js";
import { ExplainedError, PartialCreateError } from "../kit/errors.js";
import { ownerOutput } from "../kit/owner.js";
import { activeOutput } from "./phone-number.js";
import { defineKind } from "../kit/kind.js";
import { Refusal } from "../kit/refusal.js";

/** What settling a lost buy reads of a listed number. */
const BoughtSchema = z.object({ number: z.string(), active: z.boolean().nullish() });

/** The area code of a North American number (+1AAA...), if it is one. */
const areaOf = (number: string): string | undefined => /^\+1(\d{3})\d{7}$/.exec(number)?.[1];

/**
 * The account's number with this service id, for a purchase whose answer was unreadable (its id
 * recorded, not its number). Only the list can find it, and a list never proves it gone: one that
 * lags behind the purchase, or holds an item it cannot read, simply misses it, and there is no
 * read by id whose 404 would say more. Not seen: `unseen` says why, and the caller refuses.
 */
async function byId(client: VoiceAgentClient, id: string): Promise<PhoneNumber | { unseen: string }> {
  const sighting = lookForId(await client.numbers.list.listing(), id);
  if ("seen" in sighting && sighting.seen[0]) return sighting.seen[0];
  return {
    unseen:
      "unknown" in sighting
        ? `the account's list of numbers could not be read whole (${sighting.unknown})`
        : "the account's list of numbers does not show it (a list can lag behind a purchase)",
  };
}

/** What a refusal about an id-only number says first: what is recorded, what is unknown, and that nothing was sent. */
function unseen(id: string, why: string): string {
  return (
    `the number of ${id} was never recorded (its purchase's answer could not be read), and ${why}: ` +
    "whether it is still bought is unknown. Nothing was sent"
  );
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
      compare: { live: (recorded) => (recorded.number ? areaOf(recorded.number) : undefined) },
      change: "replaces",
      unset: "service-decides",
    },
    number: {
      doc:
        "The number, E.164. Set, the account's number to take over instead of buying one (destroy will then cancel it); " +
        "unset, the one bought. Changing it replaces.",
      wire: null,
      read: (n) => n.number,
      change: "replaces",
      unset: "service-assigns",
    },
  },
  // GET /v1/numbers is an extension route: without it, refresh keeps what was recorded.
  extensionReads: true,
  outputs: {
    active: activeOutput(),
    userId: ownerOutput(),
  },
  refine: (inputs) =>
    inputs.number && inputs.areaCode && areaOf(inputs.number) !== inputs.areaCode
      ? [inputFailure("areaCode does not match the area code of number; give one or the other")]
      : [],
  // A later run settles a lost buy by the area code asked for (kit/unsettled.ts): what the number is
  // bound to may have changed since, and a cancelled number is not the one bought.
  unsettledMatch: (item, body) => {
    const n = BoughtSchema.safeParse(item);
    const area = PhoneNumberBuySchema.safeParse(body).data?.area_code;
    return n.success && n.data.active !== false && (!area || areaOf(n.data.number) === area);
  },
  declared: ({ scope, inputs }) => {
    if (inputs.number) scope.host.claims.declare("PurchasedNumber", inputs.number);
  },
  async create({ client, inputs, bodies }) {
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
        throw new ExplainedError(
          "number is not one of this account's numbers; nothing was bought or changed. Leave number unset to buy one",
          { code: "E_NOT_FOUND", mayHaveActed: false, cause: err },
        );
      }
      throw err;
    });
    if (owned.active === false)
      throw new ExplainedError(
        "number was cancelled and can never be used again; nothing was changed. Leave number unset to buy one",
        { code: "E_CONFLICT", mayHaveActed: false },
      );
    return owned;
  },
  async read({ client, id, recorded }) {
    // `pulumi import` names a number by its E.164 number and records nothing yet; a purchase whose
    // answer was unreadable has its id recorded but not its number.
    const number = recorded.number ?? (E164Schema.safeParse(id).success ? id : undefined);
    if (number) {
      const n = await client.numbers.get(number);
      return n.active !== false ? n : undefined;
    }
    const found = await byId(client, id);
    if ("unseen" in found) {
      throw new Refusal(
        "E_UNSEEN",
        `${unseen(id, found.unseen)}, and it stays in the state as recorded. ` +
          "Run `pulumi refresh` once the service lists the number (`voiceagent audit` shows the account's numbers); " +
          "if it was cancelled outside Pulumi, run `pulumi state delete <urn>`",
      );
    }
    return found.active !== false ? found : undefined;
  },
  async delete({ scope, client, id, recorded }) {
    // A purchase whose answer was unreadable has its id recorded but not its number.
    let number = recorded.number;
    if (!number) {
      const found = await byId(client, id).catch((err: unknown) => {
        throw new ExplainedError(
          `nothing was cancelled: the number of ${id} was never recorded and the account's numbers could not be listed to find it. ` +
            "Run `pulumi refresh` once the service lists numbers, or cancel it on the service and run `pulumi state delete <urn>`",
          { code: "E_UNSEEN", mayHaveActed: false, cause: err },
        );
      });
      // Never "already gone": a number bought and billed must not leave the state uncancelled.
      if ("unseen" in found) {
        throw new Refusal(
          "E_UNSEEN",
          `${unseen(id, found.unseen)}: it was not cancelled, and may still be bought and billed. ` +
            "Run `pulumi refresh` once the service lists the number, then destroy again; " +
            "or cancel it on the service and run `pulumi state delete <urn>`",
        );
      }
      // Listed as cancelled already: nothing is left to cancel.
      if (found.active === false) return;
      number = found.number;
    }
    // Only another purchase of the number holds it: a binding of it does not keep it bought.
    const claim = scope.host.claims.of("PurchasedNumber", number);
    if (claim.status === "declared") {
      scope.note(
        `voiceagent:PurchasedNumber ${id}: not cancelled: the program declares this number in another PurchasedNumber`,
      );
      return;
    }
    if (claim.status === "unseen") throw unseenHolder("PurchasedNumber", claim.flag, "cancel");
    await client.numbers.cancel(number);
  },
});
