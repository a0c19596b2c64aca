import { z } from "zod";
import { E164Schema } from "pulumi-voiceagent/schemas";
import type { Store } from "./db.js";
import { HttpFailure } from "./http-failure.js";
import type { VoiceAgentService } from "./service.js";

/** The most numbers one call adds. */
const MAX_NUMBERS = 10_000;
/** Generated numbers have this many digits after the "+" (NANP: 1 + 10 digits). */
const GENERATED_DIGITS = 11;

/**
 * Body of `POST /admin/numbers`: explicit `numbers`, or `count` numbers generated from `prefix`
 * (the prefix then a counter from 1, zero-padded to 11 digits in all: `+1555777` gives
 * `+15557770001`, `+15557770002`, ...). For other lengths, list the numbers.
 */
export const AddNumbersSchema = z
  .strictObject({
    numbers: z.array(E164Schema).min(1).max(MAX_NUMBERS).optional(),
    count: z.number().int().min(1).max(MAX_NUMBERS).optional(),
    prefix: z
      .string()
      .regex(/^\+[1-9]\d{0,9}$/, { error: "must be + and 1 to 10 digits, e.g. +1555777" })
      .optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.numbers === undefined) === (b.count === undefined)) {
      ctx.addIssue({ code: "custom", message: "give either numbers or count (with prefix)", path: [] });
      return;
    }
    if (b.count !== undefined && b.prefix === undefined) {
      ctx.addIssue({ code: "custom", message: "Field required with count", path: ["prefix"] });
    }
    if (b.numbers !== undefined && b.prefix !== undefined) {
      ctx.addIssue({ code: "custom", message: "prefix goes with count, not with numbers", path: ["prefix"] });
    }
    if (b.count !== undefined && b.prefix !== undefined) {
      const room = 10 ** (GENERATED_DIGITS - (b.prefix.length - 1)) - 1;
      if (b.count > room) {
        ctx.addIssue({
          code: "custom",
          message: `prefix ${b.prefix} leaves room for ${room} numbers`,
          path: ["count"],
        });
      }
    }
  });
/** What `POST /admin/numbers` and `emu.addNumbers()` accept. */
export type AddNumbersInput = z.input<typeof AddNumbersSchema>;

/** The numbers asked for, and those of them that were new (the rest the caller already owned). */
export interface AddNumbersResult {
  numbers: string[];
  added: string[];
}

/** The numbers an input names, in order, without repeats. */
export function requestedNumbers(input: z.output<typeof AddNumbersSchema>): string[] {
  if (input.numbers) return [...new Set(input.numbers)];
  const prefix = input.prefix ?? "";
  const width = GENERATED_DIGITS - (prefix.length - 1);
  return Array.from({ length: input.count ?? 0 }, (_, i) => `${prefix}${String(i + 1).padStart(width, "0")}`);
}

/**
 * Gives user `userId` active numbers, all or nothing: numbers it already owns are left as they are
 * (idempotent); a number another user owns is a 409 naming it, and then nothing is added.
 */
export function addNumbers(
  store: Store,
  service: VoiceAgentService,
  userId: string,
  input: AddNumbersInput,
): AddNumbersResult {
  const numbers = requestedNumbers(AddNumbersSchema.parse(input));
  return store.tx(() => {
    const added: string[] = [];
    for (const number of numbers) {
      const owner = store.getByKey("number", number)?.userId;
      if (owner === undefined) added.push(number);
      else if (owner !== userId) throw new HttpFailure(409, `${number} belongs to another user; no number was added`);
    }
    for (const n of added) service.addNumber(userId, n);
    return { numbers, added };
  });
}
