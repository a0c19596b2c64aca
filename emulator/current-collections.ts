import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type {
  AccountConnection,
  AccountConnectionCreateSchema,
  AccountConnectionUpdateSchema,
  Prompt,
  PromptCreateSchema,
  Usage,
} from "pulumi-voiceagent/schemas";
import { Answers } from "./answers.js";
import type { Store, Table } from "./db.js";
import { refuseTemplate } from "./current-fields.js";
import { HttpFailure } from "./http-failure.js";

// The collections only the current API (2024) has: prompts, account connections (OpenAI and
// Twilio, with a Twilio account's steering pool) and vector databases, plus the usage report. Their
// answers are the current API's shapes as they are (no interface shape to render from). Secrets
// (the OpenAI key, the Twilio auth token, the Pinecone key) are stored and answered back: 0.0.48's
// response models require them as strings (docs/contract-current.md); they are never logged
// (the emulator's log holds method, url and request id only).

const notFound = (what: string) => new HttpFailure(404, `${what} not found`);
const invalid = (loc: (string | number)[], msg: string, type: string) => new HttpFailure(422, [{ loc, msg, type }]);

/** How a 404 names an object of `table`: "account_connection" -> "Account connection". */
function tableNoun(table: Table): string {
  const words = table.replaceAll("_", " ");
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/** Fields given (not undefined) of a body: a field left out stays as it was. */
function given<T extends object>(b: T): Partial<T> {
  return Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** What a page of a current-API collection holds. */
export interface CurrentPage<T> {
  items: T[];
  page: number;
  size: number;
  total: number;
  has_more: boolean;
  total_is_estimated: boolean;
}

/** The current API's own collections, per user, over the emulator's Store. */
export class CurrentCollections {
  /** `answers`: how lists show objects (the order, a lag); by default as made, at once. */
  constructor(
    private readonly store: Store,
    private readonly answers: Answers = new Answers({}),
  ) {}

  list<T extends { id: string }>(table: Table, u: string, page: number, size: number): CurrentPage<T> {
    const { items, total } = this.answers.page<T>(this.store, table, u, page, size);
    return { items, page, size, total, has_more: page * size < total, total_is_estimated: false };
  }

  // What every collection of the current API does unless its own rules say otherwise (the routes
  // of a collection without handlers of its own, current-routes.ts): an object by id (404 naming
  // the object: "Vector database not found"), a new one as sent, the fields given replacing theirs.
  get = (table: Table, u: string, id: string) =>
    this.need<{ id: string; user_id: string }>(table, u, id, tableNoun(table));
  create(table: Table, u: string, b: object) {
    return this.store.insert(table, { id: randomUUID(), user_id: u, ...given(b) });
  }
  update(table: Table, u: string, id: string, b: object) {
    return this.store.update(table, { ...this.get(table, u, id), ...given(b) });
  }

  // Prompts.
  getPrompt = (u: string, id: string) => this.need<Prompt>("prompt", u, id, "Prompt");
  createPrompt(u: string, b: z.output<typeof PromptCreateSchema>): Prompt {
    refuseTemplate(b, ["body", "prompt_template"]);
    return this.store.insert("prompt", { id: randomUUID(), user_id: u, ...given(b) });
  }
  updatePrompt(u: string, id: string, b: z.output<typeof PromptCreateSchema>): Prompt {
    const old = this.getPrompt(u, id);
    refuseTemplate(b, ["body", "prompt_template"]);
    return this.store.update("prompt", { ...old, ...given(b) });
  }

  // Account connections.
  getConnection = (u: string, id: string) =>
    this.need<AccountConnection>("account_connection", u, id, "Account connection");
  createConnection(u: string, b: z.output<typeof AccountConnectionCreateSchema>): AccountConnection {
    const twilio = b.type === "account_connection_twilio" ? { steering_pool: b.steering_pool ?? [] } : {};
    return this.store.insert("account_connection", { id: randomUUID(), user_id: u, ...b, ...twilio });
  }
  /** The type cannot change; new credentials replace the old ones whole. */
  updateConnection(u: string, id: string, b: z.output<typeof AccountConnectionUpdateSchema>): AccountConnection {
    const old = this.getConnection(u, id);
    if (old.type !== b.type) {
      throw invalid(["body", "type"], `the connection is ${old.type} and cannot change type`, "value_error.type");
    }
    return this.store.update("account_connection", { ...old, ...given(b) });
  }

  /**
   * Steering pool of a Twilio connection: a number of the team's is added once (adding it again
   * changes nothing); removing one not in the pool changes nothing. Answers the connection.
   */
  addToSteeringPool(u: string, id: string, phoneNumber: string | undefined): AccountConnection {
    const old = this.needTwilio(u, id);
    if (phoneNumber === undefined) {
      throw invalid(["body", "phone_number"], "give the number to add to the steering pool", "missing");
    }
    const held = this.store.getByKey("number", phoneNumber);
    if (!held || held.userId !== u) {
      throw invalid(["body", "phone_number"], "not one of your phone numbers", "value_error.not_found");
    }
    const pool = old.steering_pool ?? [];
    if (pool.includes(phoneNumber)) return old;
    return this.store.update("account_connection", { ...old, steering_pool: [...pool, phoneNumber] });
  }
  removeFromSteeringPool(u: string, id: string, phoneNumber: string): AccountConnection {
    const old = this.needTwilio(u, id);
    const pool = old.steering_pool ?? [];
    if (!pool.includes(phoneNumber)) return old;
    return this.store.update("account_connection", { ...old, steering_pool: pool.filter((n) => n !== phoneNumber) });
  }

  /**
   * The usage report. Nothing dials, so no call has lasted a minute: 0 minutes used, on a developer
   * plan with the limit 0.0.48 makes optional set (docs/contract-current.md).
   */
  usage(u: string): Usage {
    return { user_id: u, plan_type: "plan_developer", monthly_usage_minutes: 0, monthly_usage_limit_minutes: 1000 };
  }

  private needTwilio(u: string, id: string): AccountConnection {
    const found = this.getConnection(u, id);
    if (found.type !== "account_connection_twilio") {
      throw invalid(["query", "id"], "only a Twilio account connection has a steering pool", "value_error.type");
    }
    return found;
  }

  private need<T>(table: Table, u: string, id: string, what: string): T {
    const found = this.store.get<T>(table, u, id);
    if (!found) throw notFound(what);
    return found;
  }
}
