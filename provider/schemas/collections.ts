import { z } from "zod";
import {
  AccountConnectionCreateSchema,
  AccountConnectionSchema,
  AccountConnectionUpdateSchema,
  SteeringPoolAddSchema,
  SteeringPoolRemoveSchema,
} from "./account-connection.js";
import { ActionSchema } from "./action.js";
import { AgentSchema } from "./agent.js";
import { CallSchema } from "./call.js";
import { IdQuerySchema, PageQuerySchema } from "./common.js";
import { PhoneNumberLinkSchema } from "./current.js";
import { PhoneNumber2024Schema, page2024Of } from "./current-read.js";
import { def, type EndpointDef, type EndpointName, endpoints } from "./endpoints.js";
import { PhoneNumberSchema } from "./phone-number.js";
import { PromptCreateSchema, PromptSchema, PromptUpdateSchema } from "./prompt.js";
import { SECRET_WIRE_FIELDS } from "./secrets.js";
import { UsageSchema } from "./usage.js";
import { VectorDatabaseCreateSchema, VectorDatabaseSchema, VectorDatabaseUpdateSchema } from "./vector-database.js";
import { VoiceSchema } from "./voice.js";
import { WebhookSchema } from "./webhook.js";

// The collection table of the wire layer (issue 35: "a collection is one entry in one table"): per
// collection its wire facts only (name, the API generation that first has it, the schema of one
// object, its routes with their request and response schemas, its secret fields). The client's
// pagers and namespaces, the emulator's tables and routes, the CLI's account and the lookups'
// list routes derive from it. The words for people (singular, heading, order in `pull`) belong with
// the kinds (resources/kinds/collection-words.ts), keyed by the same name.

/** An API generation (docs/contract-current.md): the interface's (2023) or the current API (2024). */
export type WireGeneration = "2023" | "2024";

/** One collection of the service, as the wire sees it. */
export interface CollectionDef {
  /** The path segment after /v1/, e.g. "prompts". */
  readonly name: string;
  /**
   * The first API generation that has the collection: "2023" for the interface's collections (the
   * current API kept them), "2024" for those only the current API has (the interface's dialect
   * answers 404).
   */
  readonly generation: WireGeneration;
  /** One object, as read in either generation it is served in (get and list pages hold it): it has an id. */
  readonly item: z.ZodType<{ id: string }>;
  /** Its routes, by route name (the name the emulator's handlers and a client's calls use). */
  readonly routes: Readonly<{ list: EndpointDef } & Record<string, EndpointDef>>;
  /**
   * The interface's collections only: each route's name in the endpoint table (endpoints.ts), by
   * which the client sends it and the emulator's request log and faults know it.
   */
  readonly endpoints?: Readonly<Record<string, EndpointName>>;
  /** Dotted wire paths of its secret-by-nature fields (secrets.ts). */
  readonly secrets: readonly string[];
}

/** Whether a service speaking `generation` has the collection (else its routes answer 404). */
export function servedIn(c: Pick<CollectionDef, "generation">, generation: WireGeneration): boolean {
  return c.generation === "2023" || generation === "2024";
}

/** How the client, its errors and the emulator's OpenAPI name a route: its endpoint-table name, else "<collection>.<route>". */
export function routeName(c: Pick<CollectionDef, "name" | "endpoints">, route: string): string {
  return c.endpoints?.[route] ?? `${c.name}.${route}`;
}

/**
 * An interface collection's routes, from the endpoint table by name: the same definitions (so the
 * requests are those the endpoint table has always sent), under the collection's route names.
 */
function named<const R extends Record<string, EndpointName>>(names: R) {
  const routes = Object.fromEntries(Object.entries(names).map(([route, n]) => [route, endpoints[n]]));
  return { endpoints: names, routes: routes as { readonly [K in keyof R]: (typeof endpoints)[R[K]] } };
}

/** get, list, create and update of collection `name`, as every collection of the current API has them. */
function crud<const N extends string, I extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  name: N,
  item: I,
  create: C,
  update: U,
) {
  return {
    get: def({
      method: "GET",
      path: `/v1/${name}`,
      query: IdQuerySchema,
      response: item,
      retry: "safe",
      documented: false,
    }),
    list: def({
      method: "GET",
      path: `/v1/${name}/list`,
      query: PageQuerySchema,
      response: page2024Of(item),
      retry: "safe",
      documented: false,
    }),
    create: def({
      method: "POST",
      path: `/v1/${name}/create`,
      body: create,
      response: item,
      retry: "never",
      documented: false,
    }),
    update: def({
      method: "POST",
      path: `/v1/${name}/update`,
      query: IdQuerySchema,
      body: update,
      response: item,
      retry: "safe",
      documented: false,
    }),
  } as const;
}

/**
 * The answer of a steering-pool change: 0.0.48 types it `Optional[Any]`. The emulator answers the
 * connection as it now is; a client must not rely on it.
 */
const SteeringPoolAnswer = z.unknown();

/** Every collection of the service, by name, in the order the client and the emulator list them. */
export const collections = {
  agents: {
    name: "agents",
    generation: "2023",
    item: AgentSchema,
    ...named({ get: "getAgent", list: "listAgents", create: "createAgent", update: "updateAgent" }),
    secrets: SECRET_WIRE_FIELDS.agents,
  },
  voices: {
    name: "voices",
    generation: "2023",
    item: VoiceSchema,
    ...named({ get: "getVoice", list: "listVoices", create: "createVoice", update: "updateVoice" }),
    secrets: SECRET_WIRE_FIELDS.voices,
  },
  actions: {
    name: "actions",
    generation: "2023",
    item: ActionSchema,
    ...named({ get: "getAction", list: "listActions", create: "createAction", update: "updateAction" }),
    secrets: SECRET_WIRE_FIELDS.actions,
  },
  webhooks: {
    name: "webhooks",
    generation: "2023",
    item: WebhookSchema,
    ...named({ get: "getWebhook", list: "listWebhooks", create: "createWebhook", update: "updateWebhook" }),
    secrets: [],
  },
  numbers: {
    name: "numbers",
    generation: "2023",
    item: PhoneNumberSchema,
    ...named({
      get: "getNumber",
      list: "listNumbers",
      buy: "buyNumber",
      update: "updateNumber",
      cancel: "cancelNumber",
    }),
    secrets: SECRET_WIRE_FIELDS.numbers,
  },
  calls: {
    name: "calls",
    generation: "2023",
    item: CallSchema,
    ...named({ get: "getCall", list: "listCalls", create: "createCall", end: "endCall" }),
    secrets: SECRET_WIRE_FIELDS.calls,
  },
  prompts: {
    name: "prompts",
    generation: "2024",
    item: PromptSchema,
    routes: crud("prompts", PromptSchema, PromptCreateSchema, PromptUpdateSchema),
    secrets: [],
  },
  account_connections: {
    name: "account_connections",
    generation: "2024",
    item: AccountConnectionSchema,
    routes: {
      ...crud(
        "account_connections",
        AccountConnectionSchema,
        AccountConnectionCreateSchema,
        AccountConnectionUpdateSchema,
      ),
      add_to_steering_pool: def({
        method: "POST",
        path: "/v1/account_connections/add_to_steering_pool",
        query: IdQuerySchema,
        body: SteeringPoolAddSchema,
        response: SteeringPoolAnswer,
        retry: "safe",
        documented: false,
      }),
      remove_from_steering_pool: def({
        method: "POST",
        path: "/v1/account_connections/remove_from_steering_pool",
        query: IdQuerySchema,
        body: SteeringPoolRemoveSchema,
        response: SteeringPoolAnswer,
        retry: "safe",
        documented: false,
      }),
    },
    secrets: SECRET_WIRE_FIELDS.account_connections,
  },
  vector_databases: {
    name: "vector_databases",
    generation: "2024",
    item: VectorDatabaseSchema,
    routes: crud("vector_databases", VectorDatabaseSchema, VectorDatabaseCreateSchema, VectorDatabaseUpdateSchema),
    secrets: SECRET_WIRE_FIELDS.vector_databases,
  },
} as const satisfies Record<string, CollectionDef>;

/** A collection of the table. */
export type CollectionName = keyof typeof collections;
/** Every collection's name, in the table's order. */
export const COLLECTION_NAMES = Object.keys(collections) as [CollectionName, ...CollectionName[]];
/** The collections only the current API has (the interface's dialect answers 404). */
export type CurrentCollectionName = {
  [C in CollectionName]: (typeof collections)[C]["generation"] extends "2024" ? C : never;
}[CollectionName];
/** The interface's collections (the current API kept them), whose routes the endpoint table names. */
export type InterfaceCollectionName = Exclude<CollectionName, CurrentCollectionName>;
/** The routes of collection C, by route name. */
export type RoutesOf<C extends CollectionName> = (typeof collections)[C]["routes"];
/** One object of collection C, as the client reads it. */
export type ItemOf<C extends CollectionName> = z.output<(typeof collections)[C]["item"]>;

/**
 * Routes of the current API outside those collections: linking a number of the team's own Twilio
 * account (a route of the interface's numbers collection that only 2024 has) and the usage report.
 */
export const currentOnlyRoutes = {
  linkNumber: def({
    method: "POST",
    path: "/v1/numbers/link",
    body: PhoneNumberLinkSchema,
    response: PhoneNumber2024Schema,
    retry: "never",
    documented: false,
  }),
  getUsage: def({ method: "GET", path: "/v1/usage", response: UsageSchema, retry: "safe", documented: false }),
} as const;
