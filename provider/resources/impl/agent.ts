import { z } from "zod";
import { UuidSchema, type Agent } from "../../schemas/index.js";
import { PartialCreateError } from "../kit/errors.js";
import { compact, found, type Props, type ResourceSpec } from "../kit/spec.js";

const shape = {
  prompt: z.string().min(1, { error: "must not be empty" }),
  voice: UuidSchema,
  initialMessage: z.string().optional(),
  actions: z.array(UuidSchema).default([]),
  webhook: UuidSchema.optional(),
  agentId: UuidSchema.optional(),
};

/** Outputs: the inputs as the service holds them, plus what it adds. */
function outsOf(agent: Agent, inputs: Props): Props {
  const live = agent.actions.map((a) => a.id);
  const wanted = (inputs.actions as string[] | undefined) ?? [];
  // Keep the program's order when the set is the same: action order carries no meaning.
  const actions = sameSet(live, wanted) ? wanted : live;
  return compact({
    prompt: agent.prompt,
    voice: agent.voice.id,
    initialMessage: agent.initial_message || undefined,
    actions,
    webhook: agent.webhook?.id,
    agentId: inputs.agentId,
    userId: agent.user_id,
    voiceName: agent.voice.voice_name,
  });
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

function body(inputs: Props) {
  return {
    prompt: inputs.prompt as string,
    voice: inputs.voice as string,
    actions: (inputs.actions as string[] | undefined) ?? [],
    initial_message: (inputs.initialMessage as string | undefined) ?? null,
    webhook: (inputs.webhook as string | undefined) ?? null,
  };
}

/** The fields the service dropped from what was asked: a server that ignores them is not converged. */
function notKept(agent: Agent, inputs: Props): string[] {
  const o = outsOf(agent, inputs);
  return ["prompt", "voice", "initialMessage", "webhook"]
    .filter((f) => (o[f] ?? null) !== (inputs[f] ?? null))
    .concat(sameSet(o.actions as string[], (inputs.actions as string[]) ?? []) ? [] : ["actions"]);
}

/** Agent: agents/create, GET /v1/agents/?id=, agents/update; the service has no delete. */
export const agentSpec: ResourceSpec = {
  kind: "Agent",
  shape,
  fields: { initial_message: "initialMessage", prompt: "prompt", voice: "voice", actions: "actions", webhook: "webhook" },
  diff: {
    fields: ["prompt", "voice", "initialMessage", "actions", "webhook", "agentId"],
    replaceOn: ["agentId"],
    normalize: (p) => ({ ...p, actions: [...((p.actions as string[] | undefined) ?? [])].sort() }),
  },
  async create(client, inputs) {
    let agent: Agent;
    if (inputs.agentId) {
      // Adoption: take over an existing agent (import does not work for dynamic providers).
      await client.agents.get(inputs.agentId as string);
      agent = await client.agents.update(inputs.agentId as string, body(inputs));
    } else {
      const { initial_message, webhook, ...rest } = body(inputs);
      agent = await client.agents.create({
        ...rest,
        ...(initial_message !== null ? { initial_message } : {}),
        ...(webhook !== null ? { webhook } : {}),
      });
    }
    const outs = outsOf(agent, inputs);
    const dropped = notKept(agent, inputs);
    if (dropped.length) {
      throw new PartialCreateError(
        `voiceagent:Agent create: the service created agent ${agent.id} but did not keep ${dropped.join(", ")}; ` +
          "it is tracked in state: run `pulumi up` again to converge or check that the service supports these fields",
        agent.id,
        outs,
        dropped.map((f) => `${f} not kept`),
      );
    }
    return { id: agent.id, outs };
  },
  async read(client, id, props) {
    return found(outsOf(await client.agents.get(id), props), ["userId", "voiceName"]);
  },
  async update(client, id, _olds, news) {
    return outsOf(await client.agents.update(id, body(news)), news);
  },
  forgetNote: "the service has no delete for agents; it is removed from the stack and left on the service",
};
