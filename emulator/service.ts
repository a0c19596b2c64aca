import { randomUUID } from "node:crypto";
import type {
  Action,
  ActionWrite2024,
  Agent,
  Call,
  ParsedBodyOf,
  PhoneNumber,
  PhoneNumberLink,
  Voice,
  Webhook,
  ValidationIssue,
} from "pulumi-voiceagent/schemas";
import {
  type AgentCurrentFields,
  type AgentCurrentInput,
  agentCurrentFields,
  type CallCurrentFields,
  callCurrentFields,
  type NumberCurrentFields,
  numberCurrentFields,
} from "./current-fields.js";
import { Answers } from "./answers.js";
import type { Store, Table } from "./db.js";
import { HttpFailure } from "./http-failure.js";

/** An action's body in either generation: the interface's (three types, no trigger) or the current API's. */
type ActionBodyIn = ParsedBodyOf<"createAction"> | ActionWrite2024;

/** What an action's body sets: its type, its config (none is `{}`), and the current API's trigger when sent. */
function actionFields(b: ActionBodyIn): Pick<Action, "type" | "config" | "action_trigger"> {
  const trigger = "action_trigger" in b ? b.action_trigger : undefined;
  return {
    type: b.type ?? "action_end_conversation",
    config: b.config ?? {},
    ...(trigger ? { action_trigger: trigger } : {}),
  };
}

/** An agent as stored: related objects by id, embedded when read; `current` holds the 2024 API's own fields. */
type AgentRec = Omit<Agent, "voice" | "actions" | "webhook" | "initial_message"> & {
  voice: string;
  actions: string[];
  webhook: string | null;
  initial_message: string | null;
  current?: AgentCurrentFields;
};
/** A number as stored, with the 2024 API's own fields where it was given them. */
type NumberRec = Omit<PhoneNumber, "inbound_agent"> & { inbound_agent: string | null } & NumberCurrentFields;
/** A call as stored, with the 2024 API's own fields where it was given them. */
type CallRec = Omit<Call, "agent"> & { agent: string } & CallCurrentFields;

/** A voice's fields as either generation's body gives them (the type and that type's own fields). */
type VoiceFields = Omit<Voice, "id" | "user_id">;

/** The field each voice type cannot be without (voice_vocode's voice_id has a default). */
const REQUIRED_VOICE_FIELD: Partial<Record<string, "voice_name" | "voice_id" | "speaker">> = {
  voice_base: "voice_name",
  voice_azure: "voice_name",
  voice_eleven_labs: "voice_id",
  voice_play_ht: "voice_id",
  voice_rime: "speaker",
};

const notFound = (what: string) => new HttpFailure(404, `${what} not found`);
const invalid = (loc: (string | number)[], msg: string, type: string) => new HttpFailure(422, [{ loc, msg, type }]);

/** The service's behaviour, per user, over a Store. Every method takes the caller's user id. */
export class VoiceAgentService {
  /** `answers`: how lists show objects (the order, a lag); by default as made, at once. */
  constructor(
    readonly store: Store,
    readonly answers: Answers = new Answers({}),
  ) {}

  // Voices, actions, webhooks: plain objects.
  getVoice = (u: string, id: string) => this.need<Voice>("voice", u, id, "Voice");
  createVoice = (u: string, b: VoiceFields): Voice =>
    this.store.insert("voice", { id: randomUUID(), user_id: u, ...b });
  /** An update of another type replaces the voice's fields; of the same type, merges them. */
  updateVoice = (u: string, id: string, b: VoiceFields): Voice => {
    const old = this.getVoice(u, id);
    if (old.type === b.type) return this.store.update("voice", { ...old, ...b });
    // The current API's update may leave any field out: a voice taking a new type needs its required
    // one. An interface body always holds voice_name (its voices are voice_base-shaped, whatever the
    // type), and so does a current-API azure body that is complete: neither is checked further.
    const required = REQUIRED_VOICE_FIELD[b.type];
    if (required && b[required] == null && b.voice_name == null) {
      throw invalid(["body", required], `a ${b.type} voice needs ${required}`, "missing");
    }
    return this.store.update("voice", { id: old.id, user_id: old.user_id, ...b });
  };

  getAction = (u: string, id: string) => this.need<Action>("action", u, id, "Action");
  createAction = (u: string, b: ActionBodyIn): Action =>
    this.store.insert("action", { id: randomUUID(), user_id: u, ...actionFields(b) });
  // A trigger the update leaves out stays as it was (0.0.48's update params: unset is no change).
  updateAction = (u: string, id: string, b: ActionBodyIn): Action =>
    this.store.update("action", { ...this.getAction(u, id), ...actionFields(b) });

  getWebhook = (u: string, id: string) => this.need<Webhook>("webhook", u, id, "Webhook");
  createWebhook = (u: string, b: ParsedBodyOf<"createWebhook">): Webhook =>
    this.store.insert("webhook", { id: randomUUID(), user_id: u, ...b });
  updateWebhook = (u: string, id: string, b: ParsedBodyOf<"updateWebhook">): Webhook =>
    this.store.update("webhook", { ...this.getWebhook(u, id), ...b });

  // Agents.
  getAgent = (u: string, id: string): Agent => this.embedAgent(this.need<AgentRec>("agent", u, id, "Agent"));

  createAgent(u: string, b: ParsedBodyOf<"createAgent"> & AgentCurrentInput): Agent {
    this.checkRefs(u, b);
    const current = agentCurrentFields(this.store, u, b, undefined, b.prompt);
    const rec: AgentRec = {
      id: randomUUID(),
      user_id: u,
      prompt: b.prompt,
      voice: b.voice,
      actions: b.actions,
      initial_message: b.initial_message ?? null,
      webhook: b.webhook ?? null,
      ...(current ? { current } : {}),
    };
    return this.embedAgent(this.store.insert("agent", rec));
  }

  /** Fields sent replace stored ones; fields omitted stay; null clears initial_message and webhook. */
  updateAgent(u: string, id: string, b: ParsedBodyOf<"updateAgent"> & AgentCurrentInput): Agent {
    const rec = this.need<AgentRec>("agent", u, id, "Agent");
    this.checkRefs(u, b);
    const current = agentCurrentFields(this.store, u, b, rec.current, rec.prompt);
    const next: AgentRec = { ...rec, ...(current ? { current } : {}) };
    if (b.prompt !== undefined) next.prompt = b.prompt;
    if (b.voice !== undefined) next.voice = b.voice;
    if (b.actions !== undefined) next.actions = b.actions;
    if (b.initial_message !== undefined) next.initial_message = b.initial_message;
    if (b.webhook !== undefined) next.webhook = b.webhook;
    return this.embedAgent(this.store.update("agent", next));
  }

  // Numbers, addressed by their E.164 string.
  getNumber = (u: string, number: string): PhoneNumber => this.embedNumber(this.needNumber(u, number));

  /** An inbound_agent left out (the current API's body may) keeps the binding. */
  updateNumber(
    u: string,
    number: string,
    b: Omit<ParsedBodyOf<"updateNumber">, "inbound_agent"> & { inbound_agent?: string | null } & NumberCurrentFields,
  ): PhoneNumber {
    const rec = this.needNumber(u, number);
    const current = numberCurrentFields(b);
    if (b.inbound_agent === undefined) return this.embedNumber(this.store.update("number", { ...rec, ...current }));
    if (b.inbound_agent !== null) {
      if (!rec.active) {
        throw invalid(
          ["query", "phone_number"],
          "the number is cancelled and cannot be bound",
          "value_error.cancelled",
        );
      }
      if (!this.store.get("agent", u, b.inbound_agent)) {
        throw invalid(["body", "inbound_agent"], "agent not found", "value_error.not_found");
      }
    }
    return this.embedNumber(this.store.update("number", { ...rec, ...current, inbound_agent: b.inbound_agent }));
  }

  /**
   * Cancelling deactivates the number for good (it cannot be bound again) and keeps
   * `inbound_agent` as it was, as the real service does: its early clients cannot parse null there.
   */
  cancelNumber(u: string, number: string): PhoneNumber {
    const rec = this.needNumber(u, number);
    return this.embedNumber(this.store.update("number", { ...rec, active: false }));
  }

  buyNumber(
    u: string,
    b: (NonNullable<ParsedBodyOf<"buyNumber">> & NumberCurrentFields) | null | undefined,
  ): PhoneNumber {
    if (b?.inbound_agent && !this.store.get("agent", u, b.inbound_agent)) {
      throw invalid(["body", "inbound_agent"], "agent not found", "value_error.not_found");
    }
    if (b?.telephony_account_connection) this.needTwilioConnection(u, b.telephony_account_connection);
    const current = b ? numberCurrentFields(b) : {};
    const area = b?.area_code ?? "555";
    for (let i = 0; i < 1000; i++) {
      const number = `+1${area}${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
      if (this.store.getByKey("number", number)) continue;
      return this.embedNumber(this.addNumber(u, number, b?.inbound_agent ?? null, current));
    }
    throw new HttpFailure(409, `no free number in area code ${area}`);
  }

  /**
   * numbers/link (current API only): a number of the team's own Twilio account, through one of its
   * Twilio account connections. A number the service already holds (anyone's) cannot be linked.
   */
  linkNumber(u: string, b: PhoneNumberLink): PhoneNumber {
    this.needTwilioConnection(u, b.telephony_account_connection);
    if (b.inbound_agent && !this.store.get("agent", u, b.inbound_agent)) {
      throw invalid(["body", "inbound_agent"], "agent not found", "value_error.not_found");
    }
    if (this.store.getByKey("number", b.phone_number)) {
      throw invalid(["body", "phone_number"], "the number is already held by the service", "value_error.exists");
    }
    const current: NumberCurrentFields = {
      telephony_provider: "twilio",
      telephony_account_connection: b.telephony_account_connection,
      ...(b.outbound_only !== undefined ? { outbound_only: b.outbound_only } : {}),
    };
    return this.embedNumber(this.addNumber(u, b.phone_number, b.inbound_agent ?? null, current));
  }

  /** Adds an active number owned by `u` (seed data, numbers/buy and numbers/link). */
  addNumber(
    u: string,
    number: string,
    inboundAgent: string | null = null,
    current: NumberCurrentFields = {},
  ): NumberRec {
    const rec: NumberRec = {
      id: randomUUID(),
      user_id: u,
      number,
      active: true,
      inbound_agent: inboundAgent,
      ...current,
    };
    return this.store.insert("number", rec, number);
  }

  /** The user's Twilio account connection `id`, or 422 naming the field. */
  private needTwilioConnection(u: string, id: string): void {
    const found = this.store.get<{ type: string }>("account_connection", u, id);
    if (found?.type !== "account_connection_twilio") {
      throw invalid(
        ["body", "telephony_account_connection"],
        "not one of your Twilio account connections",
        "value_error.not_found",
      );
    }
  }

  // Calls: nothing dials, so a call stays not_started until it is ended.
  getCall = (u: string, id: string): Call => this.embedCall(this.need<CallRec>("call", u, id, "Call"));

  createCall(u: string, b: ParsedBodyOf<"createCall"> & CallCurrentFields): Call {
    const from = this.store.getByKey<NumberRec>("number", b.from_number);
    if (!from || from.userId !== u) {
      throw invalid(["body", "from_number"], "not one of your phone numbers", "value_error.not_found");
    }
    if (!from.data.active) {
      throw invalid(["body", "from_number"], "the number is cancelled", "value_error.cancelled");
    }
    if (!this.store.get("agent", u, b.agent))
      throw invalid(["body", "agent"], "agent not found", "value_error.not_found");
    const rec: CallRec = {
      id: randomUUID(),
      user_id: u,
      status: "not_started",
      error_message: null,
      recording_available: false,
      transcript: null,
      to_number: b.to_number,
      from_number: b.from_number,
      agent: b.agent,
      ...callCurrentFields(b, from.data),
    };
    return this.embedCall(this.store.insert("call", rec));
  }

  /** Ending is idempotent: an ended call answers as it is. */
  endCall(u: string, id: string): Call {
    const rec = this.need<CallRec>("call", u, id, "Call");
    if (rec.status === "ended" || rec.status === "error") return this.embedCall(rec);
    return this.embedCall(this.store.update("call", { ...rec, status: "ended" }));
  }

  // Lists.
  list(table: Table, u: string, page: number, size: number) {
    const { items, total } = this.answers.page<{ id: string }>(this.store, table, u, page, size);
    const embedded = items.map((it) => {
      if (table === "agent") return this.embedAgent(it as AgentRec);
      if (table === "number") return this.embedNumber(it as NumberRec);
      if (table === "call") return this.embedCall(it as CallRec);
      return it;
    });
    return { items: embedded, page, size, total, has_more: page * size < total };
  }

  private need<T>(table: Table, u: string, id: string, what: string): T {
    const found = this.store.get<T>(table, u, id);
    if (!found) throw notFound(what);
    return found;
  }

  private needNumber(u: string, number: string): NumberRec {
    const row = this.store.getByKey<NumberRec>("number", number);
    if (!row || row.userId !== u) throw notFound("Phone number");
    return row.data;
  }

  /** Every referenced voice, action and webhook must exist for this user: 422 naming the field. */
  private checkRefs(
    u: string,
    b: { voice?: string | undefined; actions?: string[] | undefined; webhook?: string | null | undefined },
  ) {
    const issues: ValidationIssue[] = [];
    if (b.voice !== undefined && !this.store.get("voice", u, b.voice)) {
      issues.push({ loc: ["body", "voice"], msg: "voice not found", type: "value_error.not_found" });
    }
    b.actions?.forEach((a, i) => {
      if (!this.store.get("action", u, a)) {
        issues.push({ loc: ["body", "actions", i], msg: "action not found", type: "value_error.not_found" });
      }
    });
    if (b.webhook && !this.store.get("webhook", u, b.webhook)) {
      issues.push({ loc: ["body", "webhook"], msg: "webhook not found", type: "value_error.not_found" });
    }
    if (issues.length) throw new HttpFailure(422, issues);
  }

  private embedAgent(rec: AgentRec): Agent {
    const u = rec.user_id;
    const { current, ...own } = rec;
    return {
      ...own,
      ...(current ? this.embedAgentCurrent(u, current) : {}),
      voice: this.getVoice(u, rec.voice),
      actions: rec.actions.map((a) => this.getAction(u, a)),
      webhook: rec.webhook ? this.getWebhook(u, rec.webhook) : null,
    };
  }

  /**
   * The 2024 API's own agent fields as an answer holds them: objects referred to embedded, the
   * prompt given as `prompt_object` (its prompt object, or the inline one under a stable id) and,
   * when it is one of the team's prompt objects, `prompt_ref`; current.ts turns these two into the
   * current API's `prompt`. A referred object since gone reads as absent.
   */
  private embedAgentCurrent(u: string, c: AgentCurrentFields): Record<string, unknown> {
    const { prompt, vector_database, openai_account_connection, ...scalars } = c;
    const stored = prompt.ref ? this.store.get<Record<string, unknown>>("prompt", u, prompt.ref) : undefined;
    const vdb = vector_database ? this.store.get("vector_database", u, vector_database) : undefined;
    const oai = openai_account_connection
      ? this.store.get("account_connection", u, openai_account_connection)
      : undefined;
    return {
      ...scalars,
      prompt_object: stored ?? { id: prompt.id, user_id: u, ...prompt.fields },
      ...(stored && typeof stored.content === "string" ? { prompt: stored.content, prompt_ref: stored.id } : {}),
      ...(vdb ? { vector_database: vdb } : {}),
      ...(oai ? { openai_account_connection: oai } : {}),
    };
  }

  /** A binding to an agent that no longer exists reads as unbound, never as a missing number. */
  private embedNumber(rec: NumberRec): PhoneNumber {
    const agent = rec.inbound_agent ? this.store.get<AgentRec>("agent", rec.user_id, rec.inbound_agent) : undefined;
    return {
      ...rec,
      inbound_agent: agent ? this.embedAgent(agent) : null,
      ...this.embedConnection(rec.user_id, rec.telephony_account_connection),
    };
  }

  private embedCall(rec: CallRec): Call {
    return {
      ...rec,
      agent: this.getAgent(rec.user_id, rec.agent),
      ...this.embedConnection(rec.user_id, rec.telephony_account_connection),
    };
  }

  /** A number's or call's Twilio account connection, embedded; left out when there is none (or it is gone). */
  private embedConnection(
    u: string,
    id: string | undefined,
  ): { telephony_account_connection?: { id: string; [field: string]: unknown } | null } {
    return id ? { telephony_account_connection: this.store.get("account_connection", u, id) ?? null } : {};
  }
}
