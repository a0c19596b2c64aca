// A trial kind, as a contributor would add one on routes the service already has: an agent that
// only greets (a prompt and a voice), on the agents collection. It is this file and one
// registration line (trial-kind.test.ts registers it by mocking the registry's module); nothing
// else of the provider, the plugin or the CLI is edited for it.
import { z } from "zod";
import {
  AgentCreateSchema,
  AgentUpdateSchema,
  UuidSchema,
  type Agent,
  type AgentUpdate,
} from "../../provider/schemas/index.js";
import { defineKind } from "../../provider/resources/kit/kind.js";
import { ownerOutput } from "../../provider/resources/kit/owner.js";

/** Greeter: agents/create, GET /v1/agents/?id=, agents/update; the service has no delete. */
export const greeterKind = defineKind<Agent, AgentUpdate>()({
  kind: "Greeter",
  collection: "agents",
  doc: "An agent that only greets callers. Destroying it removes it from the stack only.",
  importId: "its id (a UUID)",
  input: z.object({ prompt: z.string().min(1, { error: "must not be empty" }), voice: UuidSchema }),
  fields: {
    prompt: { doc: "What it says.", wire: "prompt", read: (a) => a.prompt },
    voice: { doc: "The id of the voice it speaks with.", wire: "voice", read: (a) => a.voice.id },
  },
  outputs: { userId: ownerOutput() },
  create: ({ client, bodies }) => client.agents.create(AgentCreateSchema.parse(bodies.create)),
  read: ({ client, id }) => client.agents.get(id),
  update: ({ client, id, bodies }) => client.agents.update(id, AgentUpdateSchema.parse(bodies.update)),
  forgetNote: "the service has no delete for agents; it is removed from the stack and left on the service",
});
