import { randomUUID } from "node:crypto";
import type { EndpointName } from "pulumi-voiceagent/schemas";

// The current API (2024) as the emulator speaks it with `api: "2024"` (docs/contract-current.md).
// The service logic is one; these turn its interface-shaped answers into the current API's shapes
// (after the response check, which reads both) and the current API's requests into the shapes the
// service logic takes (after the request check, which uses the current API's body schemas).

/** An object of the wire, its fields not yet read (not a JSON value of any shape: see schemas/json.ts). */
/** A JSON object of the wire, before or after the current API's normalizing. */
export type WireObject = Record<string, unknown>;
/** Whether a JSON value is an object (not null, not an array). */
export const isRecord = (v: unknown): v is WireObject => typeof v === "object" && v !== null && !Array.isArray(v);
const idIn = (v: unknown): unknown => (isRecord(v) ? v.id : v);

/**
 * A full agent of the current API: the prompt is an object (the prompt object the service gave,
 * see VoiceAgentService.embedAgentCurrent, else one made of the text); related objects stay embedded.
 */
function agent(a: unknown): unknown {
  if (!isRecord(a)) return a;
  const { prompt_object, prompt_ref: _ref, ...rest } = a;
  const prompt = isRecord(prompt_object)
    ? prompt_object
    : typeof a.prompt === "string"
      ? { id: randomUUID(), user_id: a.user_id, content: a.prompt }
      : a.prompt;
  return { ...rest, prompt, actions: Array.isArray(a.actions) ? a.actions.map(action) : a.actions };
}

/** A list page's agent: the prompt by id when it is one of the team's prompt objects, else inline params. */
function normalizedAgent(item: WireObject): WireObject {
  const { prompt_object, prompt_ref, ...rest } = item;
  const inline = isRecord(prompt_object)
    ? Object.fromEntries(Object.entries(prompt_object).filter(([k]) => k !== "id" && k !== "user_id"))
    : { content: item.prompt };
  const prompt = typeof prompt_ref === "string" ? prompt_ref : typeof item.prompt === "string" ? inline : item.prompt;
  return {
    ...rest,
    prompt,
    voice: idIn(item.voice),
    actions: Array.isArray(item.actions) ? item.actions.map(idIn) : [],
    webhook: item.webhook ? idIn(item.webhook) : null,
    ...refs(item, ["vector_database", "openai_account_connection"]),
  };
}

/** The given fields, where present, as ids (a list page's references). */
function refs(item: WireObject, fields: string[]): WireObject {
  return Object.fromEntries(fields.filter((f) => item[f]).map((f) => [f, idIn(item[f])]));
}

/**
 * A call of the current API, with the two fields 0.0.48 requires: the number's telephony provider
 * (the emulator's numbers are Twilio's unless bought as Vonage's) and the agent's side of the call,
 * which for an outbound call is the number it is placed from. A call's recording is not known
 * until it ends: the current API leaves it null, in a call's own answers as in a list page's (the
 * same object answers alike wherever it is read).
 */
function call(c: WireObject): WireObject {
  return {
    ...c,
    telephony_provider: c.telephony_provider ?? "twilio",
    agent_phone_number: c.agent_phone_number ?? c.from_number,
    recording_available: c.recording_available || null,
  };
}

/** The given time fields, where set, as Unix seconds: 0.0.48's `NormalizedCall` types them as numbers. */
function epochSeconds(item: WireObject, fields: string[]): WireObject {
  return Object.fromEntries(
    fields.flatMap((f) => {
      const v = item[f];
      return typeof v === "string" ? [[f, Date.parse(v) / 1000]] : [];
    }),
  );
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
      return normalizedAgent(item);
    case "listNumbers":
      return {
        ...item,
        inbound_agent: item.inbound_agent ? idIn(item.inbound_agent) : null,
        ...refs(item, ["telephony_account_connection"]),
      };
    case "listCalls":
      return {
        ...call(item),
        agent: idIn(item.agent),
        ...refs(item, ["telephony_account_connection"]),
        ...epochSeconds(item, ["start_time", "end_time"]),
      };
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
  if ("agent" in body && "to_number" in body) return { ...call(body), agent: agent(body.agent) };
  if ("type" in body && "config" in body) return action(body);
  return body;
}

/**
 * A request body of the current API in the shape the service logic takes: the prompt as text, the
 * inline prompt's other fields (fields to collect, context endpoint, template) as `prompt_fields`.
 */
export function requestToInterface(body: unknown): unknown {
  if (!isRecord(body) || !isRecord(body.prompt)) return body;
  const { content, ...fields } = body.prompt;
  return {
    ...body,
    prompt: typeof content === "string" ? content : "",
    ...(Object.keys(fields).length ? { prompt_fields: fields } : {}),
  };
}
