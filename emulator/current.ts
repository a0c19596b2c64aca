import { randomUUID } from "node:crypto";
import type { EndpointName } from "pulumi-voiceagent/schemas";

// The current API (2024) as the emulator speaks it with `api: "2024"` (docs/contract-current.md).
// The service logic is one; these turn its interface-shaped answers into the current API's shapes
// (after the response check, which reads both) and the current API's requests into the shapes the
// service logic takes (after the request check, which uses the current API's body schemas).

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const idOf = (v: unknown): unknown => (isRecord(v) ? v.id : v);

/** A full agent of the current API: the prompt is an object; related objects stay embedded. */
function agent(a: unknown): unknown {
  if (!isRecord(a)) return a;
  const prompt = typeof a.prompt === "string" ? { id: randomUUID(), user_id: a.user_id, content: a.prompt } : a.prompt;
  return { ...a, prompt, actions: Array.isArray(a.actions) ? a.actions.map(action) : a.actions };
}

/** An action: an empty config is sent as null, as the current API leaves the optional config out. */
function action(a: unknown): unknown {
  if (!isRecord(a)) return a;
  return isRecord(a.config) && Object.keys(a.config).length === 0 ? { ...a, config: null } : a;
}

/** A list item of the current API: references as ids, the prompt as inline params. */
function normalized(name: EndpointName, item: unknown): unknown {
  if (!isRecord(item)) return item;
  switch (name) {
    case "listAgents":
      return {
        ...item,
        prompt: typeof item.prompt === "string" ? { content: item.prompt } : item.prompt,
        voice: idOf(item.voice),
        actions: Array.isArray(item.actions) ? item.actions.map(idOf) : [],
        webhook: item.webhook ? idOf(item.webhook) : null,
      };
    case "listNumbers":
      return { ...item, inbound_agent: item.inbound_agent ? idOf(item.inbound_agent) : null };
    case "listCalls":
      // A call's recording is not known until it ends: the current API leaves it null.
      return { ...item, agent: idOf(item.agent), recording_available: item.recording_available || null };
    case "listActions":
      return action(item);
    default:
      return item;
  }
}

/** An answer of route `name` in the current API's shape. */
export function renderCurrent(name: EndpointName, body: unknown): unknown {
  if (!isRecord(body)) return body;
  if (Array.isArray(body.items)) {
    return { ...body, items: body.items.map((i) => normalized(name, i)), total_is_estimated: false };
  }
  if ("prompt" in body && "voice" in body) return agent(body);
  if ("inbound_agent" in body) return { ...body, inbound_agent: body.inbound_agent ? agent(body.inbound_agent) : null };
  if ("agent" in body && "to_number" in body) return { ...body, agent: agent(body.agent) };
  if ("type" in body && "config" in body) return action(body);
  return body;
}

/** A request body of the current API in the shape the service logic takes: the prompt as text. */
export function requestToInterface(body: unknown): unknown {
  if (!isRecord(body) || !isRecord(body.prompt)) return body;
  return { ...body, prompt: typeof body.prompt.content === "string" ? body.prompt.content : "" };
}
