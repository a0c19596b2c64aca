import { AgentSchema, endpoints, type AgentUpdateWrite, type AgentWrite } from "../schemas/index.js";
import { generationOf } from "./generation.js";
import type { ClientParts } from "./client-parts.js";
import { pager, readPage, type CollectionPagers } from "./pager.js";
import { agentCreateBody, agentCurrentFieldsOf, agentUpdateBody } from "./wire.js";

/** The client's `agents`: create exactly once, read, update, list, in the generation each body needs. */
export function agentsClient(parts: ClientParts, agents: CollectionPagers["agents"]) {
  const { send, encoded, likely, resolveGeneration, wrote, once } = parts;
  /**
   * A 2024 list page names an agent's prompt by the Prompt's id when it is one of the team's Prompts:
   * such an item lacks the prompt's text that a read gives, so it is left unread here and read on its own.
   */
  const reads = parts.pages.collection("agents", {
    list: pager(endpoints.listAgents, (page, size, deadline) =>
      send("listAgents", { query: { page, size }, deadline }).then((p) => {
        const byPromptId = (item: unknown) =>
          generationOf(p) === "2024" && isRecord(item) && typeof item.prompt === "string";
        const read = readPage(AgentSchema, { ...p, items: p.items.filter((i) => !byPromptId(i)) });
        const lacking = p.items.filter(byPromptId).map((item) => ({
          ...(isRecord(item) && typeof item.id === "string" ? { id: item.id } : {}),
          why: "its prompt is given by id in a list",
        }));
        return { ...read, unreadable: [...(read.unreadable ?? []), ...lacking] };
      }),
    ).listing,
    keyOf: (a) => a.id,
  });
  return {
    // Both generations take the prompt as text; the current one is sent it inline as `{content}`.
    // A body with the current API's own fields (or a prompt object's id) needs the generation
    // settled first: the interface cannot take them, and the client says so before sending.
    create: async (body: AgentWrite) => {
      const gen = agentCurrentFieldsOf(body).length ? await resolveGeneration() : undefined;
      return once(
        "agents",
        "agent",
        body,
        (deadline) =>
          send("createAgent", {
            body: encoded(agentCreateBody(gen ?? likely(), body), "POST", "/v1/agents/create"),
            deadline,
          }),
        agents.listing,
      );
    },
    get: (id: string) => reads.read(id, () => send("getAgent", { query: { id } })),
    update: async (id: string, body: AgentUpdateWrite) => {
      // A clear (null) differs in kind between the generations, and only the current API takes
      // its own fields: resolve it first then.
      const gen =
        body.initial_message === null || body.webhook === null || agentCurrentFieldsOf(body).length
          ? await resolveGeneration()
          : likely();
      return wrote(
        "agents",
        send("updateAgent", {
          query: { id },
          body: encoded(agentUpdateBody(gen, body), "POST", "/v1/agents/update"),
        }),
      );
    },
    list: agents,
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
