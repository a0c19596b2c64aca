import { z } from "zod";
import { E164Schema, UuidSchema } from "./common.js";
import { WebhookUrlSchema } from "./limits.js";
import { ACTION_TYPES, ACTION_TYPES_2023, EXTERNAL_PROCESSING_MODES, PHRASE_CONDITIONS } from "./values.js";

/** A known action type, of either generation (docs/decisions.md §1, docs/contract-current.md). */
export const ActionTypeSchema = z.enum(ACTION_TYPES);
/** An action type the interface (2023) has. */
export const ActionType2023Schema = z.enum(ACTION_TYPES_2023);

/** An action's config as sent: `phone_number` is optional; keys we do not know are kept. */
export const ActionConfigWriteSchema = z.looseObject({ phone_number: E164Schema.optional() });

/** One phrase that sets an action off, and how it matches what the caller says (0.0.48 `PhraseTrigger`). */
export const PhraseTriggerSchema = z.object({
  phrase: z.string().min(1, { error: "must not be empty" }),
  conditions: z.array(z.enum(PHRASE_CONDITIONS)).min(1, { error: "must name at least one condition" }),
});

/** The model decides when to take the action (0.0.48 `FunctionCallActionTrigger`; its config is empty). */
export const FunctionCallTriggerSchema = z.object({
  type: z.literal("action_trigger_function_call"),
  config: z.object({}).nullish(),
});
/** A phrase the caller says sets the action off (0.0.48 `PhraseBasedActionTriggerInput`). */
export const PhraseBasedTriggerSchema = z.object({
  type: z.literal("action_trigger_phrase_based"),
  config: z.object({ phrase_triggers: z.array(PhraseTriggerSchema).min(1) }),
});
/** An action's trigger as sent (current API only). */
export const ActionTriggerWriteSchema = z.discriminatedUnion("type", [
  FunctionCallTriggerSchema,
  PhraseBasedTriggerSchema,
]);
/** An action's trigger as sent. */
export type ActionTriggerWrite = z.infer<typeof ActionTriggerWriteSchema>;

/** An external action's config (0.0.48 `ExternalActionConfig`): the team's own API, called during a call. */
export const ExternalActionConfigSchema = z.object({
  processing_mode: z.enum(EXTERNAL_PROCESSING_MODES).optional(),
  name: z.string().min(1),
  description: z.string(),
  url: WebhookUrlSchema,
  input_schema: z.record(z.string(), z.json()),
  speak_on_send: z.boolean(),
  speak_on_receive: z.boolean(),
  signature_secret: z.string().optional(),
});
/** An add-to-conference action's config (0.0.48 `AddToConferenceConfig`). */
export const AddToConferenceConfigSchema = z.object({
  phone_number: E164Schema,
  place_primary_on_hold: z.boolean().optional(),
});
/** The config of a type that takes none (0.0.48 `EmptyActionConfig`): nothing, or an empty object. */
const EmptyConfigSchema = z.strictObject({}).nullish();

/** A trigger any type takes: the model's function call, or phrases. */
const AnyTrigger = ActionTriggerWriteSchema.optional();
/** The trigger dtmf and external actions take: only the model's function call (0.0.48). */
const FunctionCallOnly = FunctionCallTriggerSchema.optional();

/**
 * Body of actions/create and actions/update in the current API (0.0.48 `ActionParamsRequest`):
 * one of six types, each with its own config and the triggers it takes.
 */
export const ActionWrite2024Schema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("action_end_conversation"), config: EmptyConfigSchema, action_trigger: AnyTrigger }),
  z.object({
    type: z.literal("action_transfer_call"),
    config: z.object({ phone_number: E164Schema }),
    action_trigger: AnyTrigger,
  }),
  z.object({ type: z.literal("action_dtmf"), config: EmptyConfigSchema, action_trigger: FunctionCallOnly }),
  z.object({
    type: z.literal("action_external"),
    config: ExternalActionConfigSchema,
    action_trigger: FunctionCallOnly,
  }),
  z.object({
    type: z.literal("action_add_to_conference"),
    config: AddToConferenceConfigSchema,
    action_trigger: AnyTrigger,
  }),
  z.object({ type: z.literal("action_set_hold"), config: EmptyConfigSchema, action_trigger: AnyTrigger }),
]);
/** Body of actions/create and actions/update in the current API. */
export type ActionWrite2024 = z.input<typeof ActionWrite2024Schema>;

/** An action's trigger as the service returns it: any type read, a null config as none. */
const ActionTriggerReadSchema = z.looseObject({
  type: z.string(),
  config: z
    .looseObject({
      phrase_triggers: z.array(z.looseObject({ phrase: z.string(), conditions: z.array(z.string()) })).nullish(),
    })
    .nullish(),
});
/** An action's trigger as read. */
export type ActionTriggerRead = z.infer<typeof ActionTriggerReadSchema>;

/** An action's config as read: each type's fields, any of them missing or null; keys we do not know kept. */
const ActionConfigReadSchema = z.looseObject({
  phone_number: z.string().nullish(),
  place_primary_on_hold: z.boolean().nullish(),
  processing_mode: z.string().nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  url: z.string().nullish(),
  input_schema: z.record(z.string(), z.json()).nullish(),
  speak_on_send: z.boolean().nullish(),
  speak_on_receive: z.boolean().nullish(),
  signature_secret: z.string().nullish(),
});

/**
 * An action as the service returns it; a missing or null config reads as `{}`; any type is read;
 * the current API's trigger is read when there (the interface has none).
 */
export const ActionSchema = z.object({
  id: UuidSchema,
  user_id: z.string(),
  type: z.string(),
  config: z.codec(ActionConfigReadSchema.nullish(), ActionConfigReadSchema, {
    decode: (c) => c ?? {},
    encode: (c) => c,
  }),
  action_trigger: ActionTriggerReadSchema.nullish(),
});
/** An action. */
export type Action = z.infer<typeof ActionSchema>;

/** Body of actions/create and actions/update in the interface (2023): three types, no trigger. */
export const ActionWriteSchema = z.object({
  type: ActionType2023Schema.default("action_end_conversation"),
  config: ActionConfigWriteSchema.default({}),
});
/** Body of actions/create and actions/update in the interface, as sent. */
export type ActionWrite = z.input<typeof ActionWriteSchema>;

/**
 * An action as the provider asks for it, in either generation (the client words it for the one in
 * use, client/wire.ts `actionBody`): any of the six types, its config, and its trigger if set.
 */
export const ActionBodySchema = z.object({
  type: ActionTypeSchema.default("action_end_conversation"),
  config: ActionConfigWriteSchema.default({}),
  action_trigger: ActionTriggerWriteSchema.optional(),
});
/** An action as the provider asks for it. */
export type ActionBody = z.input<typeof ActionBodySchema>;
