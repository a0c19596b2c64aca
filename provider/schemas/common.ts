import { z } from "zod";
import type { UnreadableItem } from "./read.js";

/** A resource identifier: the interface says every id is a UUID string. */
export const UuidSchema = z.uuid({ error: "must be a UUID" });

/** A phone number in E.164 form, e.g. +15551234567: the service addresses numbers this way. */
export const E164Schema = z
  .string({
    // Pulumi YAML reads a config value such as +15551234567 as a number (pulumi/pulumi-yaml#577),
    // and a program passes it on as one: say how to keep it a string (without a double quote: the
    // engine prints one escaped).
    error: (iss) =>
      typeof iss.input === "number"
        ? `must be an E.164 phone number string such as +15551234567, not the number ${iss.input}: Pulumi YAML reads a ` +
          `config value that looks like a number as a number; set it as a JSON string, wrapped in double quotes (the ` +
          `shell needs single quotes around them)`
        : undefined,
  })
  .regex(/^\+[1-9]\d{1,14}$/, { error: "must be an E.164 phone number such as +15551234567" });

/** `?id=` on agents/update, GET /v1/agents, calls/end, voices/update and the extension reads. */
export const IdQuerySchema = z.object({ id: UuidSchema });
/** `?id=` query. */
export type IdQuery = z.infer<typeof IdQuerySchema>;

/** `?phone_number=` on numbers/update, numbers/cancel and GET /v1/numbers (docs/decisions.md §1). */
export const PhoneNumberQuerySchema = z.object({ phone_number: E164Schema });
/** `?phone_number=` query. */
export type PhoneNumberQuery = z.infer<typeof PhoneNumberQuerySchema>;

/** `?page=&size=` on the list endpoints; pages count from 1. */
export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(50),
});
/** Paging query. */
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** Builds the `{items, page, size, total, has_more}` envelope of a list endpoint. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    size: z.number().int(),
    total: z.number().int(),
    has_more: z.boolean(),
  });
}

/**
 * One page of a list endpoint, its items read. `unreadable` holds the items that did not parse
 * (left out, so one odd item never hides the rest, but kept in view: a page with one is no proof
 * that an object is absent); `total_is_estimated` is the current API's.
 */
export type Page<T> = {
  items: T[];
  page: number;
  size: number;
  total: number;
  has_more: boolean;
  total_is_estimated?: boolean | null | undefined;
  unreadable?: UnreadableItem[];
};

/** The empty body of numbers/cancel and calls/end: absent, empty (read as null) or `{}`. */
export const EmptyBodySchema = z.object({}).nullish();
