import { z } from "zod";
import { EmptyBodySchema, IdQuerySchema, PageQuerySchema, PhoneNumberQuerySchema } from "./common.js";
import {
  AgentCreate2024Schema,
  AgentUpdate2024Schema,
  CallCreate2024Schema,
  PhoneNumberBuy2024Schema,
  PhoneNumberUpdate2024Schema,
  VoiceUpdate2024Schema,
  VoiceWrite2024Schema,
  WebhookCreate2024Schema,
  WebhookUpdate2024Schema,
} from "./current.js";
import {
  Agent2024Schema,
  AgentItem2024Schema,
  Call2024Schema,
  CallItem2024Schema,
  PhoneNumber2024Schema,
  PhoneNumberItem2024Schema,
  page2024Of,
  Voice2024Schema,
} from "./current-read.js";
import { PageReadSchema } from "./read.js";
import { ActionSchema, ActionWrite2024Schema, ActionWriteSchema } from "./action.js";
import { AgentCreateSchema, AgentSchema, AgentUpdateSchema } from "./agent.js";
import { CallCreateSchema, CallSchema } from "./call.js";
import { PhoneNumberBuySchema, PhoneNumberSchema, PhoneNumberUpdateSchema } from "./phone-number.js";
import { VoiceSchema, VoiceWrite2023Schema } from "./voice.js";
import { WebhookSchema, WebhookWriteSchema } from "./webhook.js";

/**
 * How one route is called. `retry` says whether a failed attempt may be repeated: "never" for the
 * POSTs that make something new (a duplicate agent or a second real phone call is worse than an
 * error). `documented` marks the 8 endpoints of docs/contract.md; the rest are the extension routes of docs/decisions.md §1.
 */
export interface EndpointDef {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly query?: z.ZodType<Record<string, unknown>>;
  readonly body?: z.ZodType;
  readonly response: z.ZodType;
  readonly retry: "safe" | "never";
  readonly documented: boolean;
  /**
   * An irreversible act (numbers/cancel, calls/end): any 2xx means it was done, whatever its body
   * holds (an unreadable answer must never turn a done act into a reported failure).
   */
  readonly acknowledges?: true;
  /** The body the current API (2024) takes, where it differs from the interface's `body`. */
  readonly current?: z.ZodType;
  /**
   * The answer of the current API (2024), where it carries more than the interface's `response`
   * reads (current-read.ts: what SDK 0.0.48 requires). The emulator's `--api 2024` checks its
   * answers with it; the client keeps reading `response`, which takes both generations.
   */
  readonly currentResponse?: z.ZodType;
}

/** An endpoint as declared, its literal types kept (for the tables of endpoints and of collections). */
export const def = <const E extends EndpointDef>(e: E): E => e;

/**
 * The answer of an irreversible act (numbers/cancel, calls/end): read by the client if it can, but
 * never a reason to report the act as failed once the service has carried it out.
 */
const Acknowledged = z.unknown();

/** Every route the client calls and the emulator serves, by name. */
export const endpoints = {
  // The 8 documented endpoints. GET /v1/agents is called without the interface's trailing slash,
  // as both SDK generations do: a server may redirect the slash form (docs/contract-current.md).
  createAgent: def({
    method: "POST",
    path: "/v1/agents/create",
    body: AgentCreateSchema,
    current: AgentCreate2024Schema,
    response: AgentSchema,
    retry: "never",
    documented: true,
    currentResponse: Agent2024Schema,
  }),
  getAgent: def({
    method: "GET",
    path: "/v1/agents",
    query: IdQuerySchema,
    response: AgentSchema,
    retry: "safe",
    documented: true,
    currentResponse: Agent2024Schema,
  }),
  updateAgent: def({
    method: "POST",
    path: "/v1/agents/update",
    query: IdQuerySchema,
    body: AgentUpdateSchema,
    current: AgentUpdate2024Schema,
    response: AgentSchema,
    retry: "safe",
    documented: true,
    currentResponse: Agent2024Schema,
  }),
  updateNumber: def({
    method: "POST",
    path: "/v1/numbers/update",
    query: PhoneNumberQuerySchema,
    body: PhoneNumberUpdateSchema,
    current: PhoneNumberUpdate2024Schema,
    response: PhoneNumberSchema,
    retry: "safe",
    documented: true,
    currentResponse: PhoneNumber2024Schema,
  }),
  cancelNumber: def({
    method: "POST",
    path: "/v1/numbers/cancel",
    query: PhoneNumberQuerySchema,
    body: EmptyBodySchema,
    response: Acknowledged,
    acknowledges: true,
    retry: "safe",
    documented: true,
  }),
  createCall: def({
    method: "POST",
    path: "/v1/calls/create",
    body: CallCreateSchema,
    response: CallSchema,
    retry: "never",
    documented: true,
    current: CallCreate2024Schema,
    currentResponse: Call2024Schema,
  }),
  endCall: def({
    method: "POST",
    path: "/v1/calls/end",
    query: IdQuerySchema,
    body: EmptyBodySchema,
    response: Acknowledged,
    acknowledges: true,
    retry: "safe",
    documented: true,
  }),
  updateVoice: def({
    method: "POST",
    path: "/v1/voices/update",
    query: IdQuerySchema,
    body: VoiceWrite2023Schema,
    current: VoiceUpdate2024Schema,
    response: VoiceSchema,
    retry: "safe",
    documented: true,
    currentResponse: Voice2024Schema,
  }),

  // Extensions (docs/decisions.md §1).
  getVoice: def({
    method: "GET",
    path: "/v1/voices",
    query: IdQuerySchema,
    response: VoiceSchema,
    retry: "safe",
    documented: false,
    currentResponse: Voice2024Schema,
  }),
  getAction: def({
    method: "GET",
    path: "/v1/actions",
    query: IdQuerySchema,
    response: ActionSchema,
    retry: "safe",
    documented: false,
  }),
  getWebhook: def({
    method: "GET",
    path: "/v1/webhooks",
    query: IdQuerySchema,
    response: WebhookSchema,
    retry: "safe",
    documented: false,
  }),
  getCall: def({
    method: "GET",
    path: "/v1/calls",
    query: IdQuerySchema,
    response: CallSchema,
    retry: "safe",
    documented: false,
    currentResponse: Call2024Schema,
  }),
  getNumber: def({
    method: "GET",
    path: "/v1/numbers",
    query: PhoneNumberQuerySchema,
    response: PhoneNumberSchema,
    retry: "safe",
    documented: false,
    currentResponse: PhoneNumber2024Schema,
  }),
  listAgents: def({
    method: "GET",
    path: "/v1/agents/list",
    query: PageQuerySchema,
    response: PageReadSchema,
    retry: "safe",
    documented: false,
    currentResponse: page2024Of(AgentItem2024Schema),
  }),
  listVoices: def({
    method: "GET",
    path: "/v1/voices/list",
    query: PageQuerySchema,
    response: PageReadSchema,
    retry: "safe",
    documented: false,
    currentResponse: page2024Of(Voice2024Schema),
  }),
  listNumbers: def({
    method: "GET",
    path: "/v1/numbers/list",
    query: PageQuerySchema,
    response: PageReadSchema,
    retry: "safe",
    documented: false,
    currentResponse: page2024Of(PhoneNumberItem2024Schema),
  }),
  listCalls: def({
    method: "GET",
    path: "/v1/calls/list",
    query: PageQuerySchema,
    response: PageReadSchema,
    retry: "safe",
    documented: false,
    currentResponse: page2024Of(CallItem2024Schema),
  }),
  listActions: def({
    method: "GET",
    path: "/v1/actions/list",
    query: PageQuerySchema,
    response: PageReadSchema,
    retry: "safe",
    documented: false,
  }),
  listWebhooks: def({
    method: "GET",
    path: "/v1/webhooks/list",
    query: PageQuerySchema,
    response: PageReadSchema,
    retry: "safe",
    documented: false,
  }),
  createVoice: def({
    method: "POST",
    path: "/v1/voices/create",
    body: VoiceWrite2023Schema,
    current: VoiceWrite2024Schema,
    response: VoiceSchema,
    retry: "never",
    documented: false,
    currentResponse: Voice2024Schema,
  }),
  createAction: def({
    method: "POST",
    path: "/v1/actions/create",
    body: ActionWriteSchema,
    current: ActionWrite2024Schema,
    response: ActionSchema,
    retry: "never",
    documented: false,
  }),
  createWebhook: def({
    method: "POST",
    path: "/v1/webhooks/create",
    body: WebhookWriteSchema,
    current: WebhookCreate2024Schema,
    response: WebhookSchema,
    retry: "never",
    documented: false,
  }),
  updateAction: def({
    method: "POST",
    path: "/v1/actions/update",
    query: IdQuerySchema,
    body: ActionWriteSchema,
    current: ActionWrite2024Schema,
    response: ActionSchema,
    retry: "safe",
    documented: false,
  }),
  updateWebhook: def({
    method: "POST",
    path: "/v1/webhooks/update",
    query: IdQuerySchema,
    body: WebhookWriteSchema,
    response: WebhookSchema,
    retry: "safe",
    documented: false,
    current: WebhookUpdate2024Schema,
  }),
  buyNumber: def({
    method: "POST",
    path: "/v1/numbers/buy",
    body: PhoneNumberBuySchema,
    response: PhoneNumberSchema,
    retry: "never",
    documented: false,
    current: PhoneNumberBuy2024Schema,
    currentResponse: PhoneNumber2024Schema,
  }),
} as const;

/** The name of a route. */
export type EndpointName = keyof typeof endpoints;
type EndpointDefs = typeof endpoints;
type SchemaInput<S> = S extends z.ZodType ? z.input<S> : never;
type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : never;

/** What a caller passes as the query of route N (before defaults). */
export type QueryOf<N extends EndpointName> = EndpointDefs[N] extends { query: infer Q } ? SchemaInput<Q> : undefined;
/** What a caller passes as the body of route N (before defaults), in either generation. */
export type BodyOf<N extends EndpointName> = EndpointDefs[N] extends { body: infer B }
  ? SchemaInput<B> | (EndpointDefs[N] extends { current: infer C } ? SchemaInput<C> : never)
  : undefined;
/** The parsed request body the emulator sees for route N. */
export type ParsedBodyOf<N extends EndpointName> = EndpointDefs[N] extends { body: infer B }
  ? SchemaOutput<B>
  : undefined;
/** The parsed query the emulator sees for route N. */
export type ParsedQueryOf<N extends EndpointName> = EndpointDefs[N] extends { query: infer Q }
  ? SchemaOutput<Q>
  : undefined;
/** The parsed response of route N. */
export type ResponseOf<N extends EndpointName> = SchemaOutput<EndpointDefs[N]["response"]>;
