import { z } from "zod";
import { E164Schema, UuidSchema } from "./common.js";
import { ACTION_TYPES } from "./values.js";

/** A known action type (docs/decisions.md §1). */
export const ActionTypeSchema = z.enum(ACTION_TYPES);

/** An action's config as sent: `phone_number` is optional; keys we do not know are kept. */
export const ActionConfigWriteSchema = z.looseObject({ phone_number: E164Schema.optional() });

/** An action as the service returns it; a missing or null config reads as `{}`; any type is read. */
export const ActionSchema = z.object({
  id: UuidSchema,
  user_id: z.string(),
  type: z.string(),
  config: z.codec(
    z.looseObject({ phone_number: z.string().nullish() }).nullish(),
    z.looseObject({ phone_number: z.string().nullish() }),
    {
      decode: (c) => c ?? {},
      encode: (c) => c,
    },
  ),
});
/** An action. */
export type Action = z.infer<typeof ActionSchema>;

/** Body of actions/create and actions/update. */
export const ActionWriteSchema = z.object({
  type: ActionTypeSchema.default("action_end_conversation"),
  config: ActionConfigWriteSchema.default({}),
});
/** Body of actions/create and actions/update, as sent. */
export type ActionWrite = z.input<typeof ActionWriteSchema>;
