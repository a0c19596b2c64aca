import { z } from "zod";
import { UuidSchema } from "./common.js";

// Request bodies of the current API (2024, as its SDK 0.0.48 types them; docs/contract-current.md)
// where they differ from the interface's. The client sends these when it talks to that generation;
// the emulator's `--api 2024` checks requests with them.

const azure = z.object({
  type: z.literal("voice_azure"),
  voice_name: z.string().min(1),
  pitch: z.number().int().optional(),
  rate: z.number().int().optional(),
});
const elevenLabs = z.object({
  type: z.literal("voice_eleven_labs"),
  voice_id: z.string().min(1),
  api_key: z.string().min(1).optional(),
});
const playHt = z.object({
  type: z.literal("voice_play_ht"),
  voice_id: z.string().min(1),
  api_user_id: z.string().min(1).optional(),
  api_key: z.string().min(1).optional(),
});
const rime = z.object({ type: z.literal("voice_rime"), speaker: z.string().min(1) });
const vocode = z.object({ type: z.literal("voice_vocode"), voice_id: z.literal("joe").default("joe") });

/**
 * A voice in the current API: one of five types, each with its own fields. There is no
 * voice_base, and no field of one type is accepted on another.
 */
export const VoiceWrite2024Schema = z.discriminatedUnion("type", [azure, elevenLabs, playHt, rime, vocode]);
/** A voice body of the current API. */
export type VoiceWrite2024 = z.input<typeof VoiceWrite2024Schema>;
/** The five voice types of the current API. */
export const VOICE_TYPES_2024 = [
  "voice_azure",
  "voice_eleven_labs",
  "voice_play_ht",
  "voice_rime",
  "voice_vocode",
] as const;

/** A prompt sent inline: the current API takes text or `{content}`; the provider sends `{content}`. */
export const PromptParamsSchema = z.object({ content: z.string().min(1) });
const prompt = z.union([z.string().min(1), PromptParamsSchema]);

/** Body of agents/create in the current API: related objects by id, the prompt inline. */
export const AgentCreate2024Schema = z.object({
  prompt,
  voice: UuidSchema,
  actions: z.array(UuidSchema).default([]),
  initial_message: z.string().optional(),
  webhook: UuidSchema.optional(),
});
/** Body of agents/create in the current API. */
export type AgentCreate2024 = z.input<typeof AgentCreate2024Schema>;

/**
 * Body of agents/update in the current API: a field is sent or left out, never null (its types
 * have no None). An opening message is cleared with ""; a webhook cannot be removed at all.
 */
export const AgentUpdate2024Schema = z.object({
  prompt: prompt.optional(),
  voice: UuidSchema.optional(),
  actions: z.array(UuidSchema).optional(),
  initial_message: z.string().optional(),
  webhook: UuidSchema.optional(),
});
/** Body of agents/update in the current API. */
export type AgentUpdate2024 = z.input<typeof AgentUpdate2024Schema>;

/** Body of numbers/update in the current API: an agent to bind; no null, so a number cannot be unbound. */
export const PhoneNumberUpdate2024Schema = z.object({ inbound_agent: UuidSchema });
/** Body of numbers/update in the current API. */
export type PhoneNumberUpdate2024 = z.infer<typeof PhoneNumberUpdate2024Schema>;
