import { z } from "zod";

// The bounds the provider checks at preview, where the contract says "not shown" (docs/contract.md,
// Limits). Chosen to fit the service's one stated behaviour: a body over 1 MiB is refused with 413
// (the emulator's bodyLimit), which names no field. Each text limit keeps its body well under that
// even when every character takes JSON's longest escape (6 bytes), so preview, not `up`, says which
// field is too long. The emulator enforces the same numbers, written there independently
// (emulator/contract.ts), and a test holds the two to agreement.

/** Size and range limits of the inputs, one place (the input schemas reference them). */
export const LIMITS = {
  /** Characters of an agent's prompt. */
  promptMax: 100_000,
  /** Characters of an agent's initial message. */
  initialMessageMax: 10_000,
  /** Characters of a voice name. */
  voiceNameMax: 200,
  /** Characters of a webhook URL. */
  urlMax: 2_048,
  /** Actions one agent may take. */
  actionsMax: 50,
  /** A voice's pitch: an integer offset. */
  pitch: { min: -100, max: 100 },
  /** A voice's rate: an integer, 0 and up. */
  rate: { min: 0, max: 100 },
} as const;

/** A text of at most `max` characters; the message names the limit (never the value). */
export const textUpTo = (max: number) => z.string().max(max, { error: `must be at most ${max} characters` });

/** An integer in [min, max]; the message names the range (never the value). */
export const integerIn = (range: { min: number; max: number }) =>
  z
    .number()
    .int({ error: "must be an integer" })
    .min(range.min, { error: `must be between ${range.min} and ${range.max}` })
    .max(range.max, { error: `must be between ${range.min} and ${range.max}` });

/** Ids, each at most once: a duplicate would be sent twice, and the service's answer holds it once. */
export const distinctIds = <T extends z.ZodType<string>>(id: T, max: number) =>
  z
    .array(id)
    .max(max, { error: `must hold at most ${max} ids` })
    .refine((ids) => new Set(ids).size === ids.length, { error: "must not name the same id twice" });

/**
 * A webhook URL: http(s), at most {@link LIMITS.urlMax} characters, with no credentials (they would
 * be stored in plain text in the state: put them behind the endpoint, not in its URL) and no
 * character a URL cannot hold as written (a space would be sent unencoded).
 */
export const WebhookUrlSchema = z
  .string()
  .max(LIMITS.urlMax, { error: `must be at most ${LIMITS.urlMax} characters` })
  .refine((u) => !/[\s<>"{}|\\^`]/.test(u), {
    error: "must be a valid URL: encode spaces and other reserved characters (e.g. %20)",
  })
  .pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }))
  .refine((u) => !/^[a-z]+:\/\/[^/?#]*@/i.test(u), {
    error:
      "must not hold credentials (user:password@): they would be stored in plain text in the state; authenticate the endpoint another way",
  });
