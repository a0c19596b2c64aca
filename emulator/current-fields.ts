import { randomUUID } from "node:crypto";
import {
  AgentFields2024Schema,
  type CallCreate2024,
  type PhoneNumberBuy2024,
  type PhoneNumberUpdate2024,
  type PromptCreate,
} from "pulumi-voiceagent/schemas";
import type { z } from "zod";
import type { Store } from "./db.js";
import { HttpFailure } from "./http-failure.js";

// The fields only the current API (2024) has on the interface's collections (agents, numbers, calls), as
// the emulator stores them. Kept apart from the interface's fields (an agent's under `current`,
// a number's and a call's only when given), so the interface dialect's answers never change.

type ParsedAgentFields2024 = z.output<typeof AgentFields2024Schema>;

/** A prompt's fields besides its content, as the current API takes them inline (current.ts sets them apart). */
export type PromptFields = Omit<PromptCreate, "content">;

/** What agents/create and agents/update of the current API hand the service besides the interface's fields. */
export type AgentCurrentInput = Partial<ParsedAgentFields2024> & {
  llm_temperature?: number;
  prompt_fields?: PromptFields;
};

/** An agent's 2024 fields as stored: references by id; the prompt by reference or inline under a stable id. */
export type AgentCurrentFields = Omit<ParsedAgentFields2024, "vector_database" | "openai_account_connection"> & {
  llm_temperature?: number;
  vector_database?: string;
  openai_account_connection?: string;
  prompt: { id: string; ref?: string; fields: Record<string, unknown> };
};

/** A number's 2024 fields as stored. */
export type NumberCurrentFields = Omit<NonNullable<PhoneNumberBuy2024>, "area_code" | "inbound_agent"> &
  Omit<PhoneNumberUpdate2024, "inbound_agent">;

/** A call's 2024 fields as stored; `agent_phone_number` is derived when it is answered (current.ts). */
export type CallCurrentFields = Omit<Partial<CallCreate2024>, "from_number" | "to_number" | "agent"> & {
  telephony_provider?: string;
  telephony_account_connection?: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SCALARS = Object.keys(AgentFields2024Schema.shape).filter(
  (k) => k !== "vector_database" && k !== "openai_account_connection",
);
const notFound = (field: string, what: string) =>
  new HttpFailure(422, [{ loc: ["body", field], msg: `${what} not found`, type: "value_error.not_found" }]);

/**
 * The emulator knows no prompt templates (0.0.48 has no route that makes one), so a prompt that
 * names one is refused naming the field, nothing written.
 */
export function refuseTemplate(fields: { prompt_template?: unknown } | undefined, loc: string[]): void {
  if (fields?.prompt_template !== undefined) {
    throw new HttpFailure(422, [{ loc, msg: "prompt template not found", type: "value_error.not_found" }]);
  }
}

/**
 * An agent's 2024 fields after a create or update body: fields sent replace stored ones, fields left
 * out stay. Undefined when neither the body nor the agent has any (an agent the interface made).
 * A vector database given inline is made here; references are checked (422 naming the field).
 */
export function agentCurrentFields(
  store: Store,
  u: string,
  b: AgentCurrentInput & { prompt?: string | undefined },
  old: AgentCurrentFields | undefined,
  promptText: string,
): AgentCurrentFields | undefined {
  const given = SCALARS.filter((k) => Reflect.get(b, k) !== undefined);
  const touched =
    given.length > 0 ||
    b.llm_temperature !== undefined ||
    b.prompt_fields !== undefined ||
    b.vector_database !== undefined ||
    b.openai_account_connection !== undefined ||
    (b.prompt !== undefined && UUID.test(b.prompt));
  if (!old && !touched) return undefined;
  refuseTemplate(b.prompt_fields, ["body", "prompt", "prompt_template"]);
  const next: AgentCurrentFields = { ...(old ?? { prompt: { id: randomUUID(), fields: { content: promptText } } }) };
  for (const k of given) Reflect.set(next, k, Reflect.get(b, k));
  if (b.llm_temperature !== undefined) next.llm_temperature = b.llm_temperature;
  if (b.prompt !== undefined) {
    const id = next.prompt.id;
    next.prompt =
      UUID.test(b.prompt) && store.get("prompt", u, b.prompt)
        ? { id, ref: b.prompt, fields: {} }
        : { id, fields: { ...(b.prompt ? { content: b.prompt } : {}), ...b.prompt_fields } };
  }
  const vdb = b.vector_database;
  if (typeof vdb === "string") {
    if (!store.get("vector_database", u, vdb)) throw notFound("vector_database", "vector database");
    next.vector_database = vdb;
  } else if (vdb !== undefined) {
    next.vector_database = store.insert("vector_database", { id: randomUUID(), user_id: u, ...vdb }).id;
  }
  const oai = b.openai_account_connection;
  if (oai !== undefined) {
    const id = typeof oai === "string" ? oai : oai.id;
    const found = store.get<{ type: string }>("account_connection", u, id);
    if (found?.type !== "account_connection_openai")
      throw notFound("openai_account_connection", "OpenAI account connection");
    next.openai_account_connection = id;
  }
  return next;
}

/** A number's 2024 fields a buy, link or update body gives (only those given). */
export function numberCurrentFields(b: NumberCurrentFields): NumberCurrentFields {
  const out: NumberCurrentFields = {};
  if (b.label !== undefined) out.label = b.label;
  if (b.outbound_only !== undefined) out.outbound_only = b.outbound_only;
  if (b.example_context !== undefined) out.example_context = b.example_context;
  if (b.telephony_provider !== undefined) out.telephony_provider = b.telephony_provider;
  if (b.telephony_account_connection !== undefined) out.telephony_account_connection = b.telephony_account_connection;
  return out;
}

/** A call's 2024 fields: the options its body gives, the provider and account of the number it is placed from. */
export function callCurrentFields(b: CallCurrentFields, from: NumberCurrentFields): CallCurrentFields {
  const out: CallCurrentFields = {};
  if (b.on_no_human_answer !== undefined) out.on_no_human_answer = b.on_no_human_answer;
  if (b.run_do_not_call_detection !== undefined) out.run_do_not_call_detection = b.run_do_not_call_detection;
  if (b.hipaa_compliant !== undefined) out.hipaa_compliant = b.hipaa_compliant;
  if (b.context !== undefined) out.context = b.context;
  if (b.telephony_params !== undefined) out.telephony_params = b.telephony_params;
  if (from.telephony_provider !== undefined) out.telephony_provider = from.telephony_provider;
  if (from.telephony_account_connection !== undefined)
    out.telephony_account_connection = from.telephony_account_connection;
  return out;
}
