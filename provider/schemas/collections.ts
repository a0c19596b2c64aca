import { z } from "zod";
import {
  AccountConnectionCreateSchema,
  AccountConnectionSchema,
  AccountConnectionUpdateSchema,
  SteeringPoolAddSchema,
  SteeringPoolRemoveSchema,
} from "./account-connection.js";
import { IdQuerySchema, PageQuerySchema } from "./common.js";
import { PhoneNumberLinkSchema } from "./current.js";
import { PhoneNumber2024Schema, page2024Of } from "./current-read.js";
import type { EndpointDef } from "./endpoints.js";
import { PromptCreateSchema, PromptSchema, PromptUpdateSchema } from "./prompt.js";
import { SECRET_WIRE_FIELDS } from "./secrets.js";
import { UsageSchema } from "./usage.js";
import { VectorDatabaseCreateSchema, VectorDatabaseSchema, VectorDatabaseUpdateSchema } from "./vector-database.js";

// The collection table of the wire layer (issue 35: "a collection is one entry in one table"): per
// collection its wire facts only (name, the API generation that has it, the schema of one object,
// its routes with their request and response schemas, its secret fields). The words for people
// (singular, heading, order in `pull`) belong with the kinds, keyed by the same name. It starts
// with the collections only the current API (2024) has; the interface's collections (endpoints.ts)
// can join it as entries of the same shape without changing these.

/** One collection of the service, as the wire sees it. */
export interface CollectionDef {
  /** The path segment after /v1/, e.g. "prompts". */
  readonly name: string;
  /** The API generation that has the collection: the interface's (2023) dialect answers 404. */
  readonly generation: "2024";
  /** One object, as read (get, create and update answer it; list pages hold it). */
  readonly item: z.ZodType;
  /** Its routes, by route name (the name the emulator's handlers and a client's calls use). */
  readonly routes: Readonly<Record<string, EndpointDef>>;
  /** Dotted wire paths of its secret-by-nature fields (secrets.ts). */
  readonly secrets: readonly string[];
}

const def = <const E extends EndpointDef>(e: E): E => e;

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

/** The collections of the current API the interface lacks, by name. */
export const collections = {
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
