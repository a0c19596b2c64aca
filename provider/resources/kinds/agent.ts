import { z } from "zod";
import {
  AgentUpdateWriteSchema,
  AgentWriteSchema,
  distinctIds,
  ENDPOINTING_SENSITIVITIES,
  INTERRUPT_SENSITIVITIES,
  IVR_NAVIGATION_MODES,
  LANGUAGES,
  LIMITS,
  LLM_FALLBACK_PROVIDERS,
  textUpTo,
  UuidSchema,
  WebhookUrlSchema,
  type Agent,
  type AgentUpdateWrite,
  type AgentWrite,
} from "../../schemas/index.js";
import type { VoiceAgentClient } from "../../client/index.js";
import { closedObject, inputFailure, type CheckFailure } from "../kit/check.js";
import { ExplainedError, isGone } from "../kit/errors.js";
import { defineKind, type Props } from "../kit/kind.js";
import { ownerOutput } from "../kit/owner.js";
import { lackedBy } from "../kit/since.js";
import { refusal, slug } from "../kit/pull.js";

/** Openings that every prompt shares and that say nothing about the agent. */
const PROMPT_OPENING = /^\s*(?:you\s+are|you're|you\s+will\s+be|act\s+as|as)\s+(?:an?|the)?\s*/i;

/**
 * An agent's base name: its own name where the service holds one (the current API), else the
 * first words of its prompt after "You are the" (an agent naming a prompt object has no text here).
 */
export function agentBaseName(a: Pick<Agent, "prompt"> & { name?: string | null | undefined }): string {
  if (a.name && slug(a.name, 4)) return slug(a.name, 4);
  const firstSentence = a.prompt.replace(PROMPT_OPENING, "").split(/[.!?;:\n]/)[0] ?? "";
  return slug(firstSentence, 4) || slug(a.prompt, 4) || "agent";
}

const AgentPromptSchema = AgentWriteSchema.pick({ prompt: true }).required();

/** "Unset: the service's value stands" said once for the fields the 2024 API cannot clear. */
const KEPT =
  "Only the current API (2024) has it. Left unset, the agent keeps the service's value (its update takes no null, so nothing clears it).";

/** Exactly one of `prompt` and `promptId`, counting those not known yet at preview. */
function onePrompt(given: ReadonlySet<string>): CheckFailure[] {
  const both = given.has("prompt") && given.has("promptId");
  if (both)
    return [
      inputFailure(
        "prompt and promptId are both set: give the prompt as text (prompt) or as a Prompt's id (promptId), not both",
      ),
    ];
  if (!given.has("prompt") && !given.has("promptId"))
    return [
      inputFailure(
        "prompt is required: give the prompt as text (prompt), or a Prompt's id (promptId) on the current API",
      ),
    ];
  return [];
}

/** The current API's inputs the program no longer sets, which the agent keeps (nothing clears them). */
function keptUnset(olds: Readonly<Record<string, unknown>>, news: Readonly<Record<string, unknown>>): string[] {
  // The current API's own inputs: what the interface (2023) lacks.
  return lackedBy(agentKind.fields, "2023").filter(
    (k) => k !== "promptId" && olds[k] !== undefined && news[k] === undefined,
  );
}

/** Nothing recorded yet: the object is being imported (or read by a program's `.get()`). */
const nothingRecorded = (recorded: object) => Object.keys(recorded).length === 0;

/**
 * Whether the agent speaks by a Prompt it names by id: the program says so (promptId recorded,
 * no text), or, on an import, the agent names one of the team's prompts (its read kept the id).
 */
function byPromptId(a: Pick<Agent, "prompt_id">, recorded: { prompt?: unknown; promptId?: unknown }): boolean {
  if (recorded.promptId !== undefined) return recorded.prompt === undefined;
  return nothingRecorded(recorded) && a.prompt_id !== undefined;
}

/** Whether `id` is one of the team's prompt objects (an inline prompt's id is not: its read answers 404). */
async function isTeamPrompt(client: VoiceAgentClient, id: string): Promise<boolean> {
  try {
    await client.prompts.get(id);
    return true;
  } catch (err) {
    if (isGone(err)) return false;
    throw err;
  }
}

/** Agent: agents/create, GET /v1/agents/?id=, agents/update; the service has no delete. */
/**
 * The update body; a webhook the agent does not have is left out rather than cleared with null,
 * which the 2024 API cannot take (a removal it refuses at preview, generationCheck below), so an
 * agent without a webhook can be updated on either API.
 */
function updateBody(body: Props, had: string | undefined): AgentUpdateWrite {
  const parsed = AgentUpdateWriteSchema.parse(body);
  if (had !== undefined || parsed.webhook !== null) return parsed;
  const { webhook: _none, ...rest } = parsed;
  return rest;
}

/** Deepgram keywords as read (a boost may be null): the ones with a boost. */
function keywordsOf(k: Record<string, number | null>): Record<string, number> {
  return Object.fromEntries(Object.entries(k).filter((e): e is [string, number] => e[1] !== null));
}

export const agentKind = defineKind<Agent, AgentWrite>()({
  kind: "Agent",
  collection: "agents",
  pull: {
    name: agentBaseName,
    refuse: (a) => (a.prompt_id ? undefined : refusal(AgentPromptSchema.safeParse(a))),
    // A list item names a prompt object by its id only when the agent refers to one of the team's
    // prompts: then the program does too; an inline prompt is declared as its text.
    // No `adopt`: each field as an import reads it (kit/pulled.ts); the objects it refers to by id
    // (its voice, actions, webhook, and the current API's Prompt, VectorDatabase and
    // AccountConnection: `refersTo`) become references to the pulled objects.
  },
  doc:
    "A voice agent. The service has no delete: destroying it removes it from the stack only " +
    "(set the retain-on-delete resource option to say so explicitly, or the protect option to guard it).",
  importId: "its id (a UUID)",
  input: z.object({
    prompt: textUpTo(LIMITS.promptMax).min(1, { error: "must not be empty" }).optional(),
    voice: UuidSchema,
    initialMessage: textUpTo(LIMITS.initialMessageMax).optional(),
    actions: distinctIds(UuidSchema, LIMITS.actionsMax).default([]),
    webhook: UuidSchema.optional(),
    agentId: UuidSchema.optional(),
    promptId: UuidSchema.optional(),
    name: z.string().min(1, { error: "must not be empty" }).optional(),
    language: z.enum(LANGUAGES).optional(),
    interruptSensitivity: z.enum(INTERRUPT_SENSITIVITIES).optional(),
    endpointingSensitivity: z.enum(ENDPOINTING_SENSITIVITIES).optional(),
    ivrNavigationMode: z.enum(IVR_NAVIGATION_MODES).optional(),
    conversationSpeed: z.number().positive({ error: "must be greater than 0" }).optional(),
    initialMessageDelay: z.number().min(0, { error: "must be 0 or more (seconds)" }).optional(),
    idleTimeSeconds: z
      .number()
      .int({ error: "must be a whole number of seconds" })
      .min(1, { error: "must be at least 1 (seconds)" })
      .optional(),
    askIfHumanPresentOnIdle: z.boolean().optional(),
    noiseSuppression: z.boolean().optional(),
    runDoNotCallDetection: z.boolean().optional(),
    contextEndpoint: WebhookUrlSchema.optional(),
    llmTemperature: z
      .number()
      .min(0, { error: "must be between 0 and 2" })
      .max(2, { error: "must be between 0 and 2" })
      .optional(),
    openaiModelNameOverride: z.string().min(1, { error: "must not be empty" }).optional(),
    llmFallback: closedObject({
      provider: z
        .enum(LLM_FALLBACK_PROVIDERS)
        .meta({ description: `Whose model: ${LLM_FALLBACK_PROVIDERS.join(", ")}.` }),
      modelName: z
        .string()
        .min(1, { error: "must not be empty" })
        .meta({ description: 'The model\'s name, e.g. "gpt-4o-mini".' }),
    })
      .meta({
        description: "The language model an agent falls back to when its own fails (the service's `llm_fallback`).",
      })
      .optional(),
    deepgramKeywords: z.record(z.string().min(1, { error: "must not be empty" }), z.number()).optional(),
    vectorDatabase: UuidSchema.optional(),
    openaiAccountConnection: UuidSchema.optional(),
  }),
  fields: {
    // Naming the object this resource already manages is no change.
    prompt: {
      doc:
        `The agent's instructions, as text: non-empty, at most ${LIMITS.promptMax} characters. ` +
        "Exactly one of `prompt` and `promptId` is set.",
      wire: "prompt",
      // An agent whose program names a Prompt by id has no prompt text of its own to compare.
      read: (a, recorded) => (byPromptId(a, recorded) ? undefined : a.prompt),
    },
    voice: {
      refersTo: "voices",
      doc: "The id of the voice it speaks with: a `Voice`'s `id`, or an existing voice's UUID.",
      wire: "voice",
      read: (a) => a.voice.id,
    },
    initialMessage: {
      doc: `What it says first when a call connects ("" or unset: nothing); at most ${LIMITS.initialMessageMax} characters.`,
      wire: "initial_message",
      read: (a) => a.initial_message ?? undefined,
      unset: "clear",
      emptyIsUnset: true,
    },
    actions: {
      refersTo: "actions",
      doc: `Ids of the actions it may take (order does not matter), each once, at most ${LIMITS.actionsMax}.`,
      wire: "actions",
      read: (a) => a.actions.map((x) => x.id),
      compare: "set",
    },
    webhook: {
      refersTo: "webhooks",
      doc: "The id of the webhook that receives its events.",
      wire: "webhook",
      read: (a) => a.webhook?.id,
      unset: "clear",
    },
    promptId: {
      refersTo: "prompts",
      since: "2024",
      doc:
        "The id of a `Prompt` (or an existing prompt object's UUID) the agent speaks by, instead of `prompt`'s text. " +
        "Exactly one of `prompt` and `promptId` is set. Only the current API (2024) has prompt objects.",
      wire: "prompt_id",
      read: (a, recorded) => (byPromptId(a, recorded) ? a.prompt_id : undefined),
    },
    name: {
      since: "2024",
      doc:
        "The agent's name, as the dashboard shows it. Left unset, a new agent gets its logical name, or the name " +
        "the stack's `pulumi:autonaming` makes (native provider), and an agent keeps the name it has. " +
        "Only the current API (2024) has it; its update takes no null, so nothing clears it.",
      wire: "name",
      read: (a) => a.name ?? undefined,
      unset: "service-decides",
    },
    language: {
      since: "2024",
      doc: `The language it speaks and listens for: ${LANGUAGES.join(", ")}. ${KEPT}`,
      wire: "language",
      read: (a) => a.language ?? undefined,
      unset: "service-decides",
    },
    interruptSensitivity: {
      since: "2024",
      doc: `How readily a caller's speech interrupts it: ${INTERRUPT_SENSITIVITIES.join(", ")}. ${KEPT}`,
      wire: "interrupt_sensitivity",
      read: (a) => a.interrupt_sensitivity ?? undefined,
      unset: "service-decides",
    },
    endpointingSensitivity: {
      since: "2024",
      doc: `How soon it takes a pause for the end of the caller's turn: ${ENDPOINTING_SENSITIVITIES.join(", ")}. ${KEPT}`,
      wire: "endpointing_sensitivity",
      read: (a) => a.endpointing_sensitivity ?? undefined,
      unset: "service-decides",
    },
    ivrNavigationMode: {
      since: "2024",
      doc: `Whether it navigates phone menus (IVRs): ${IVR_NAVIGATION_MODES.join(", ")}. ${KEPT}`,
      wire: "ivr_navigation_mode",
      read: (a) => a.ivr_navigation_mode ?? undefined,
      unset: "service-decides",
    },
    conversationSpeed: {
      since: "2024",
      doc: `How fast it converses, a number greater than 0 (1 is the service's normal pace). ${KEPT}`,
      wire: "conversation_speed",
      read: (a) => a.conversation_speed ?? undefined,
      unset: "service-decides",
    },
    initialMessageDelay: {
      since: "2024",
      doc: `Seconds it waits before its opening message, 0 or more. ${KEPT}`,
      wire: "initial_message_delay",
      read: (a) => a.initial_message_delay ?? undefined,
      unset: "service-decides",
    },
    idleTimeSeconds: {
      since: "2024",
      doc: `Seconds of silence before it acts on an idle call, a whole number, at least 1. ${KEPT}`,
      wire: "idle_time_seconds",
      read: (a) => a.idle_time_seconds ?? undefined,
      unset: "service-decides",
    },
    askIfHumanPresentOnIdle: {
      since: "2024",
      doc: `Whether it asks if anyone is there when the call goes idle. ${KEPT}`,
      wire: "ask_if_human_present_on_idle",
      read: (a) => a.ask_if_human_present_on_idle ?? undefined,
      unset: "service-decides",
    },
    noiseSuppression: {
      since: "2024",
      doc: `Whether background noise is suppressed on the caller's audio. ${KEPT}`,
      wire: "noise_suppression",
      read: (a) => a.noise_suppression ?? undefined,
      unset: "service-decides",
    },
    runDoNotCallDetection: {
      since: "2024",
      doc: `Whether the service checks called numbers against do-not-call lists. ${KEPT}`,
      wire: "run_do_not_call_detection",
      read: (a) => a.run_do_not_call_detection ?? undefined,
      unset: "service-decides",
    },
    contextEndpoint: {
      since: "2024",
      doc:
        `An http(s) URL the service asks for context at the start of each call (no credentials in it: they would ` +
        `be stored in plain text). ${KEPT}`,
      wire: "context_endpoint",
      read: (a) => a.context_endpoint ?? undefined,
      unset: "service-decides",
    },
    llmTemperature: {
      since: "2024",
      doc:
        "The language model's sampling temperature, from 0 to 2. Only the current API (2024) has it, and only its " +
        "agents/create takes it (0.0.48's agents/update has no llm_temperature): changing it replaces the agent " +
        "(the old one stays on the service, which has no delete). Left unset, the service's value stands.",
      wire: "llm_temperature",
      read: (a) => a.llm_temperature ?? undefined,
      unset: "service-decides",
      change: "replaces",
    },
    openaiModelNameOverride: {
      since: "2024",
      doc: `The OpenAI model it uses instead of the service's default, e.g. "gpt-4o". ${KEPT}`,
      wire: "openai_model_name_override",
      read: (a) => a.openai_model_name_override ?? undefined,
      unset: "service-decides",
    },
    llmFallback: {
      since: "2024",
      doc: `The language model it falls back to when its own fails: \`provider\` (${LLM_FALLBACK_PROVIDERS.join(", ")}) and \`modelName\`. ${KEPT}`,
      wire: "llm_fallback",
      toWire: (f) => ({ provider: f.provider, model_name: f.modelName }),
      read: (a) =>
        a.llm_fallback ? { provider: a.llm_fallback.provider, modelName: a.llm_fallback.model_name } : undefined,
      unset: "service-decides",
    },
    deepgramKeywords: {
      since: "2024",
      doc: `Words the speech recognizer (Deepgram) should favour, each with its boost: \`{"Ibuprofeno": 2}\`. ${KEPT}`,
      wire: "deepgram_keywords",
      read: (a) => (a.deepgram_keywords ? keywordsOf(a.deepgram_keywords) : undefined),
      unset: "service-decides",
    },
    vectorDatabase: {
      refersTo: "vector_databases",
      since: "2024",
      doc: `The id of a \`VectorDatabase\` (or an existing one's UUID) it retrieves knowledge from. ${KEPT}`,
      wire: "vector_database",
      read: (a) => a.vector_database?.id,
      unset: "service-decides",
    },
    openaiAccountConnection: {
      refersTo: "account_connections",
      since: "2024",
      doc: `The id of an OpenAI \`AccountConnection\` (or an existing one's UUID): its language model runs on that account. ${KEPT}`,
      wire: "openai_account_connection",
      read: (a) => a.openai_account_connection?.id,
      unset: "service-decides",
    },
    agentId: {
      doc:
        "Adopt an existing agent instead of creating one: its fields are set to these arguments on the first `up`. " +
        "Changing it replaces.",
      wire: null,
      read: (_a, recorded) => recorded.agentId,
      compare: { live: (_recorded, id) => id },
      change: "replaces",
    },
  },
  adopt: "agentId",
  refine: (_inputs, given) => onePrompt(given),
  // Its display name: the logical name by default (kit/autoname.ts), on the API that has names.
  autoname: { property: "name", has: (gen) => gen !== "2023" },
  generationCheck: (gen, olds, news) => {
    // What the interface lacks is refused by the kit, from each field's `since` (kit/since.ts).
    if (gen === "2023") return {};
    if (olds.webhook && !news.webhook)
      return {
        failures: [
          inputFailure(
            "webhook: the 2024 API cannot remove an agent's webhook (its update takes no null), so nothing would change: " +
              "keep the webhook, point it at another Webhook, or replace the agent (set voiceagent:api 2023 if the service speaks the interface)",
          ),
        ],
      };
    const kept = keptUnset(olds, news);
    return kept.length
      ? {
          note:
            `voiceagent:Agent: ${kept.join(", ")} no longer set: the agent keeps the value the service holds (the ` +
            `2024 API's update cannot clear a field)`,
        }
      : {};
  },
  outputs: { userId: ownerOutput() },
  async create({ client, inputs, bodies }) {
    if (!inputs.agentId) return client.agents.create(AgentWriteSchema.parse(bodies.create));
    // Adoption (pulumi import cannot work for dynamic providers): the agent must exist; then it
    // takes every value of the program, clearing what the program leaves unset, as an update does.
    const live = await client.agents.get(inputs.agentId);
    if (inputs.llmTemperature !== undefined && live.llm_temperature !== inputs.llmTemperature) {
      throw new ExplainedError(
        `llmTemperature: agent ${inputs.agentId} has another temperature, and the service's update cannot change it ` +
          "(0.0.48's agents/update has no llm_temperature); nothing was sent: set llmTemperature to the agent's value, " +
          "or leave it unset, or drop agentId to create a new agent with it",
        { code: "E_CONFLICT", mayHaveActed: false },
      );
    }
    return client.agents.update(inputs.agentId, updateBody(bodies.update, live.webhook?.id));
  },
  async read({ client, id, recorded }) {
    const live = await client.agents.get(id);
    // An import (or a program's `.get()`) has nothing recorded to say how the program names the
    // prompt: a full agent shows a prompt object's id for an inline prompt too, so the id is kept
    // as a reference (promptId) only when it is one of the team's prompts.
    if (!nothingRecorded(recorded) || live.prompt_id === undefined) return live;
    if (await isTeamPrompt(client, live.prompt_id)) return live;
    const { prompt_id: _inline, ...inline } = live;
    return inline;
  },
  update: ({ client, id, recorded, bodies }) => client.agents.update(id, updateBody(bodies.update, recorded.webhook)),
  forgetNote: "the service has no delete for agents; it is removed from the stack and left on the service",
});
