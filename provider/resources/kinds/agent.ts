import { z } from "zod";
import { AgentCreateSchema, AgentUpdateSchema, UuidSchema, type Agent, type AgentUpdate } from "../../schemas/index.js";
import { defineKind } from "../kit/kind.js";

/** Agent: agents/create, GET /v1/agents/?id=, agents/update; the service has no delete. */
export const agentKind = defineKind<Agent, AgentUpdate>()({
  kind: "Agent",
  input: z.object({
    prompt: z.string().min(1, { error: "must not be empty" }),
    voice: UuidSchema,
    initialMessage: z.string().optional(),
    actions: z.array(UuidSchema).default([]),
    webhook: UuidSchema.optional(),
    agentId: UuidSchema.optional(),
  }),
  fields: {
    prompt: { wire: "prompt", read: (a) => a.prompt },
    voice: { wire: "voice", read: (a) => a.voice.id },
    initialMessage: { wire: "initial_message", read: (a) => a.initial_message ?? undefined, clearable: true, emptyIsUnset: true },
    actions: { wire: "actions", read: (a) => a.actions.map((x) => x.id), set: true },
    webhook: { wire: "webhook", read: (a) => a.webhook?.id, clearable: true },
    // Naming the object this resource already manages is no change.
    agentId: { wire: null, read: (_a, recorded) => recorded.agentId, live: (_recorded, id) => id, replaces: true },
  },
  adopt: "agentId",
  outputs: { userId: (a) => a.user_id },
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
