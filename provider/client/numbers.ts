import { PhoneNumberBuySchema, PhoneNumberSchema, type PhoneNumber, type PhoneNumberBuy } from "../schemas/index.js";
import { readAck, type ClientParts } from "./client-parts.js";
import type { CollectionPagers } from "./pager.js";
import { createOnce } from "./reconcile.js";
import { numberUpdateBody } from "./wire.js";

/**
 * The client's `numbers`: read, bind or unbind, cancel, buy exactly once, list (keyed by the number).
 * Declared, not inferred, so the docs of its calls reach the client's published types.
 */
export interface NumbersNamespace {
  get: (phoneNumber: string) => Promise<PhoneNumber>;
  /** Binds `inboundAgent` to the number, or unbinds it with `null`. */
  update: (phoneNumber: string, inboundAgent: string | null) => Promise<PhoneNumber>;
  /**
   * Cancels a number for good. Any 2xx means it is cancelled: the number as the answer holds
   * it, or undefined when the answer could not be read (never an error: it was done).
   */
  cancel: (phoneNumber: string) => Promise<PhoneNumber | undefined>;
  /** Buys a number exactly once (a new active number in the area code, bound as asked). */
  buy: (body?: PhoneNumberBuy) => Promise<PhoneNumber>;
  list: CollectionPagers["numbers"];
}

/** The client's `numbers`, over the parts its client shares. */
export function numbersClient(parts: ClientParts, numbers: CollectionPagers["numbers"]): NumbersNamespace {
  const { send, encoded, likely, resolveGeneration, wrote, ctx } = parts;
  const reads = parts.pages.collection("numbers", { list: () => numbers.listing(), keyOf: (n) => n.number });
  return {
    get: (phoneNumber: string) =>
      reads.read(phoneNumber, () => send("getNumber", { query: { phone_number: phoneNumber } })),
    update: async (phoneNumber: string, inboundAgent: string | null) => {
      const gen = inboundAgent === null ? await resolveGeneration() : likely();
      const body = encoded(numberUpdateBody(gen, inboundAgent), "POST", "/v1/numbers/update");
      return wrote("numbers", send("updateNumber", { query: { phone_number: phoneNumber }, body }));
    },
    cancel: async (phoneNumber: string) =>
      readAck(
        PhoneNumberSchema,
        await wrote("numbers", send("cancelNumber", { query: { phone_number: phoneNumber } })),
      ),
    buy: (body?: PhoneNumberBuy) =>
      wrote(
        "numbers",
        createOnce<PhoneNumber>(
          {
            collection: "numbers",
            noun: "phone number",
            body,
            overlaps: (other) => mayBuyMatch(other, body),
            send: (deadline) => send("buyNumber", body === undefined ? { deadline } : { body, deadline }),
            list: numbers.listing,
            matches: (n) => n.active !== false && isBought(n, body),
          },
          ctx,
        ),
      ),
    list: numbers,
  };
}

/** Whether a buy that sent `other` could make a number that `isBought` takes for `body` (when unsure: yes). */
function mayBuyMatch(other: unknown, body: PhoneNumberBuy | undefined): boolean {
  const parsed = PhoneNumberBuySchema.optional().safeParse(other);
  if (!parsed.success) return true;
  const area = body?.area_code;
  const theirs = parsed.data?.area_code;
  return (
    (!area || !theirs || area === theirs) && (parsed.data?.inbound_agent ?? null) === (body?.inbound_agent ?? null)
  );
}

/** A number numbers/buy would have made for this body: its area code, and its binding if one was asked. */
function isBought(n: PhoneNumber, body: PhoneNumberBuy | undefined): boolean {
  const area = body?.area_code;
  if (area && !n.number.startsWith(`+1${area}`)) return false;
  return (n.inbound_agent?.id ?? null) === (body?.inbound_agent ?? null);
}
