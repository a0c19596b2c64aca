import { z } from "zod";

// The tolerant reader's building blocks. The service answers in two generations (docs/contract-current.md):
// the interface's (2023) embeds related objects and sends a prompt as text; the current one (2024)
// sends a prompt object, normalizes references to ids in its lists, and leaves more fields null.
// Every response schema accepts both and decodes them to one shape, so nothing past the client
// cares which generation answered. They are codecs, not transforms, so the emulator can still
// check what it sends against them (encoding the one shape back to the interface's).

const Embedded = z.looseObject({ id: z.string() });

/**
 * A reference to another object: its id (2024's normalized lists) or the object embedded (the
 * interface). Read as `{id, ...}`, whatever else the embedded object held kept as it came.
 */
export const RefSchema = z.codec(z.union([z.string(), Embedded]), Embedded, {
  decode: (ref) => (typeof ref === "string" ? { id: ref } : ref),
  encode: (ref) => ref,
});
/** A reference as read. */
export type Ref = z.output<typeof RefSchema>;

/** A list of references; the current API may leave it null, read as empty. */
export const RefListSchema = z.codec(z.array(RefSchema).nullish(), z.array(Embedded), {
  decode: (refs) => refs ?? [],
  encode: (refs) => refs,
});

/**
 * An agent's prompt: text (the interface, and sometimes 2024's normalized lists) or a prompt
 * object whose `content` is the text (2024: `{id, user_id, content, ...}`). Read as its text.
 */
export const PromptReadSchema = z.codec(
  z.union([z.string(), z.looseObject({ content: z.string().nullish() })]),
  z.string(),
  {
    decode: (p) => (typeof p === "string" ? p : (p.content ?? "")),
    encode: (p) => p,
  },
);

/**
 * The envelope of a list page. Its items are kept raw and read one by one by the client (see
 * readItems), so one unreadable item never makes the page unreadable. 2024 adds `total_is_estimated`.
 */
export const PageReadSchema = z.object({
  items: z.array(z.unknown()),
  page: z.number().int(),
  size: z.number().int(),
  total: z.number().int(),
  has_more: z.boolean(),
  total_is_estimated: z.boolean().nullish(),
});
/** A page as read, items still raw. */
export type PageRead = z.infer<typeof PageReadSchema>;

/**
 * An item of a list page that its schema could not read: its id when the item shows one (an
 * object whose other fields are odd still names itself), and why, as the first issue's path and
 * message (never a value, so no secret is echoed).
 */
export interface UnreadableItem {
  id?: string;
  why: string;
}

/** Items of a page read one by one: the readable ones, and the ones that were not. */
export function readItems<T extends z.ZodType>(
  schema: T,
  raw: readonly unknown[],
): { items: z.output<T>[]; unreadable: UnreadableItem[] } {
  const items: z.output<T>[] = [];
  const unreadable: UnreadableItem[] = [];
  for (const item of raw) {
    const parsed = schema.safeParse(item);
    if (parsed.success) items.push(parsed.data);
    else unreadable.push({ ...idOf(item), why: firstIssue(parsed.error) });
  }
  return { items, unreadable };
}

/** The id an unreadable item shows, if it shows one as a string. */
function idOf(item: unknown): { id?: string } {
  if (typeof item !== "object" || item === null || !("id" in item)) return {};
  return typeof item.id === "string" ? { id: item.id } : {};
}

/** "user_id: Invalid input: expected string, received number": where the item broke, and how. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "unreadable";
  return issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
}
