import { z } from "zod";
import { E164Schema } from "./common.js";

// Account connections of the current API (2024, SDK 0.0.48): the team's own OpenAI and Twilio
// accounts, used by agents (an OpenAI key) and by linked numbers and calls (a Twilio account).
// Their credentials are secret by nature (secrets.ts).

/** An OpenAI account's credentials. */
export const OpenAiCredentialsSchema = z.object({ openai_api_key: z.string().min(1) });
/** A Twilio account's credentials. */
export const TwilioCredentialsSchema = z.object({
  twilio_account_sid: z.string().min(1),
  twilio_auth_token: z.string().min(1),
});

const openAiCreate = z.object({
  type: z.literal("account_connection_openai"),
  credentials: OpenAiCredentialsSchema,
});
const twilioCreate = z.object({
  type: z.literal("account_connection_twilio"),
  credentials: TwilioCredentialsSchema,
  /** Numbers of the account that place outbound calls in turn. */
  steering_pool: z.array(E164Schema).optional(),
  /** Whether the Twilio account may present any caller id. */
  account_supports_any_caller_id: z.boolean().optional(),
});

/** Body of account_connections/create: one of the two types, each with its own fields. */
export const AccountConnectionCreateSchema = z.discriminatedUnion("type", [openAiCreate, twilioCreate]);
/** Body of account_connections/create, as sent. */
export type AccountConnectionCreate = z.input<typeof AccountConnectionCreateSchema>;

/**
 * Body of account_connections/update: the type (which cannot change) and, optionally, new
 * credentials. The SDK's update types carry nothing else: a Twilio connection's steering pool
 * changes through its own two routes.
 */
export const AccountConnectionUpdateSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("account_connection_openai"), credentials: OpenAiCredentialsSchema.optional() }),
  z.object({ type: z.literal("account_connection_twilio"), credentials: TwilioCredentialsSchema.optional() }),
]);
/** Body of account_connections/update, as sent. */
export type AccountConnectionUpdate = z.input<typeof AccountConnectionUpdateSchema>;

/** Body of account_connections/add_to_steering_pool: the number to add (the SDK makes it optional). */
export const SteeringPoolAddSchema = z.object({ phone_number: E164Schema.optional() }).nullish();
/** Body of account_connections/remove_from_steering_pool: the number to remove. */
export const SteeringPoolRemoveSchema = z.object({ phone_number: E164Schema });

/**
 * An account connection as the service returns it, either type. `type` stays a plain string (a
 * new type must show as drift); each type's fields are optional here, the credentials read loose.
 */
export const AccountConnectionSchema = z.looseObject({
  id: z.string(),
  user_id: z.string(),
  type: z.string(),
  credentials: z.looseObject({
    openai_api_key: z.string().nullish(),
    twilio_account_sid: z.string().nullish(),
    twilio_auth_token: z.string().nullish(),
  }),
  steering_pool: z.array(z.string()).nullish(),
  account_supports_any_caller_id: z.boolean().nullish(),
});
/** An account connection. */
export type AccountConnection = z.infer<typeof AccountConnectionSchema>;
