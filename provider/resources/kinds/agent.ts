import { z } from "zod";
import {
  AgentCreateSchema,
  AgentUpdateSchema,
  distinctIds,
  LIMITS,
  textUpTo,
  UuidSchema,
  type Agent,
  type AgentUpdate,
} from "../../schemas/index.js";
import { inputFailure } from "../kit/check.js";
import { defineKind } from "../kit/kind.js";
import { ownerOutput } from "../kit/owner.js";
import { refusal, slug } from "../kit/pull.js";

/** Openings that every prompt shares and that say nothing about the agent. */
const PROMPT_OPENING = /^\s*(?:you\s+are|you're|you\s+will\s+be|act\s+as|as)\s+(?:an?|the)?\s*/i;

/** An agent's base name: the first words of its prompt after "You are the". */
export function agentBaseName(a: Pick<Agent, "prompt">): string {
  const firstSentence = a.prompt.replace(PROMPT_OPENING, "").split(/[.!?;:\n]/)[0] ?? "";
  return slug(firstSentence, 4) || slug(a.prompt, 4) || "agent";
}

const AgentPromptSchema = AgentCreateSchema.pick({ prompt: true });

/** Agent: agents/create, GET /v1/agents/?id=, agents/update; the service has no delete. */
export const agentKind = defineKind<Agent, AgentUpdate>()({
  kind: "Agent",
  collection: "agents",
  pull: {
    name: agentBaseName,
    refuse: (a) => refusal(AgentPromptSchema.safeParse(a)),
    adopt: (a) => ({
      args: { agentId: a.id, prompt: a.prompt, ...(a.initial_message ? { initialMessage: a.initial_message } : {}) },
      refs: [
        { key: "voice", collection: "voices", ids: [a.voice.id], list: false },
        ...(a.actions.length
          ? [{ key: "actions", collection: "actions" as const, ids: a.actions.map((x) => x.id), list: true }]
          : []),
        ...(a.webhook ? [{ key: "webhook", collection: "webhooks" as const, ids: [a.webhook.id], list: false }] : []),
      ],
    }),
  },
  doc:
    "A voice agent. The service has no delete: destroying it removes it from the stack only " +
    "(set the retain-on-delete resource option to say so explicitly, or the protect option to guard it).",
  importId: "its id (a UUID)",
  input: z.object({
    prompt: textUpTo(LIMITS.promptMax).min(1, { error: "must not be empty" }),
    voice: UuidSchema,
    initialMessage: textUpTo(LIMITS.initialMessageMax).optional(),
    actions: distinctIds(UuidSchema, LIMITS.actionsMax).default([]),
    webhook: UuidSchema.optional(),
    agentId: UuidSchema.optional(),
  }),
  fields: {
    // Naming the object this resource already manages is no change.
    prompt: {
      doc: `The agent's instructions. Required, non-empty, at most ${LIMITS.promptMax} characters.`,
      wire: "prompt",
      read: (a) => a.prompt,
    },
    voice: {
      doc: "The id of the voice it speaks with: a `Voice`'s `id`, or an existing voice's UUID.",
      wire: "voice",
      read: (a) => a.voice.id,
    },
    initialMessage: {
      doc: `What it says first when a call connects ("" or unset: nothing); at most ${LIMITS.initialMessageMax} characters.`,
      wire: "initial_message",
      read: (a) => a.initial_message ?? undefined,
      clearable: true,
      emptyIsUnset: true,
    },
    actions: {
      doc: `Ids of the actions it may take (order does not matter), each once, at most ${LIMITS.actionsMax}.`,
      wire: "actions",
      read: (a) => a.actions.map((x) => x.id),
      set: true,
    },
    webhook: {
      doc: "The id of the webhook that receives its events.",
      wire: "webhook",
      read: (a) => a.webhook?.id,
      clearable: true,
    },
    agentId: {
      doc:
        "Adopt an existing agent instead of creating one: its fields are set to these arguments on the first `up`. " +
        "Changing it replaces.",
      wire: null,
      read: (_a, recorded) => recorded.agentId,
      live: (_recorded, id) => id,
      replaces: true,
    },
  },
  adopt: "agentId",
  generationCheck: (gen, olds, news) =>
    gen === "2024" && olds.webhook && !news.webhook
      ? {
          failures: [
            inputFailure(
              "webhook: the 2024 API cannot remove an agent's webhook (its update takes no null), so nothing would change: " +
                "keep the webhook, point it at another Webhook, or replace the agent (set voiceagent:api 2023 if the service speaks the interface)",
            ),
          ],
        }
      : {},
  outputs: { userId: ownerOutput() },
  async create(client, inputs, bodies) {
    if (!inputs.agentId) return client.agents.create(AgentCreateSchema.parse(bodies.create));
    // Adoption (pulumi import cannot work for dynamic providers): the agent must exist; then it
    // takes every value of the program, clearing what the program leaves unset, as an update does.
    await client.agents.get(inputs.agentId);
    return client.agents.update(inputs.agentId, AgentUpdateSchema.parse(bodies.update));
  },
  read: (client, id) => client.agents.get(id),
  update: (client, id, _inputs, _recorded, bodies) => client.agents.update(id, AgentUpdateSchema.parse(bodies.update)),
  forgetNote: "the service has no delete for agents; it is removed from the stack and left on the service",
});
