import type { ActionBody } from "../schemas/index.js";
import type { ClientParts } from "./client-parts.js";
import type { CollectionPagers } from "./pager.js";
import { actionBody, actionGeneration } from "./wire.js";

/** The client's `actions`: create exactly once, read, update, list, in the generation the action is written for. */
export function actionsClient(parts: ClientParts, actions: CollectionPagers["actions"]) {
  const { send, encoded, generation, wrote, once } = parts;
  const reads = parts.pages.collection("actions", { list: () => actions.listing(), keyOf: (a) => a.id });
  return {
    // Async, so a refusal before sending is a rejected promise like every other failure.
    create: async (body: ActionBody) => {
      const gen = generation.known() ?? actionGeneration(body);
      const wire = encoded(actionBody(gen, body, "create"), "POST", "/v1/actions/create");
      return once(
        "actions",
        "action",
        wire,
        (deadline) => send("createAction", { body: wire, deadline }),
        actions.listing,
      );
    },
    get: (id: string) => reads.read(id, () => send("getAction", { query: { id } })),
    update: async (id: string, body: ActionBody) => {
      const gen = generation.known() ?? actionGeneration(body);
      const wire = encoded(actionBody(gen, body, "update"), "POST", "/v1/actions/update");
      return wrote("actions", send("updateAction", { query: { id }, body: wire }));
    },
    list: actions,
  };
}
