import { COLLECTION_NAMES } from "../schemas/index.js";
import { actionsClient } from "./actions.js";
import { agentsClient } from "./agents.js";
import { callsClient } from "./calls.js";
import { createCapabilities, type ExtensionsSetting } from "./capabilities.js";
import { tableNamespaces } from "./collection-client.js";
import { steeringPool } from "./current-collections.js";
import { createGeneration, type ApiSetting } from "./generation.js";
import { MemoryLedger, type CreateLedger } from "./ledger.js";
import { linkedNumbersClient } from "./linked-numbers.js";
import { numbersClient } from "./numbers.js";
import { mergeOptions, type ClientOptionsInput } from "./options.js";
import { createPageReads } from "./page-reads.js";
import { collectionPagers, type CollectionPagers } from "./pager.js";
import { createParts } from "./client-parts.js";
import { ClientSettingsError } from "./settings-error.js";
import { Snapshots } from "./snapshots.js";
import { createTransport } from "./transport.js";
import { usageClient } from "./usage.js";
import { voicesClient } from "./voices.js";
import { webhooksClient } from "./webhooks.js";

// The client is assembled here from one module per collection (agents.ts, voices.ts, actions.ts,
// webhooks.ts, numbers.ts, calls.ts; the table's collections in collection-client.ts), each given
// the parts every namespace shares (client-parts.ts): the generation a write goes by, read-your-writes
// and the exactly-once create.

/** What `createClient` needs: where the service is, the token, and any option to override. */
export interface CreateClientInput extends ClientOptionsInput {
  /** e.g. `https://api.example.com` or `http://127.0.0.1:8787`; paths start with /v1. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`; never logged or put in errors. */
  token: string;
  /**
   * Which extension routes (docs/decisions.md §1) the server has: "auto" (default) asks each list route
   * once, "all" or "none" say so without asking.
   */
  extensions?: ExtensionsSetting | undefined;
  /**
   * What this client's creates share with other clients of the account (ids taken, creates in
   * flight, checks of the list); default: its own, in memory. One Pulumi deployment's plugin
   * processes pass one shared ledger, so identical creates sent by different processes never take
   * one object.
   */
  ledger?: CreateLedger | undefined;
  /**
   * Which API generation to write in (docs/contract-current.md): "2023" (docs/contract.md), "2024"
   * (the current API), or "auto" (default): told from the service's answers, else 2023.
   */
  api?: ApiSetting | undefined;
}

/** A typed client for every endpoint of the service. */
export type VoiceAgentClient = ReturnType<typeof createClient>;

/**
 * Creates a client. Every call is typed and validated against its response schema; reads and
 * updates are retried on transient failures; creates are made exactly once (calls at most once)
 * by checking the list after an unknown outcome; one limiter, shared by all calls, backs off on 429.
 * @example
 * const client = createClient({ baseUrl: "http://127.0.0.1:8787", token: process.env.VOICEAGENT_TOKEN! });
 * const agent = await client.agents.create({ prompt: "You are helpful.", voice: voiceId });
 */
export function createClient(input: CreateClientInput) {
  const { baseUrl, token, extensions, api, ledger = new MemoryLedger(), ...rest } = input;
  if (!baseUrl) throw new ClientSettingsError("baseUrl");
  if (!token) throw new ClientSettingsError("token");
  const options = mergeOptions(rest);
  const generation = createGeneration(api);
  const transport = createTransport(baseUrl, token, options, (json) => generation.observe(json));
  const capabilities = createCapabilities(transport.sendRoute, extensions);
  const ctx = { transport, snapshots: new Snapshots(capabilities), ledger, options };
  // Every collection's pages, from the wire layer's collection table.
  const lists = collectionPagers(transport.sendRoute);
  /** Reads in pages (page-reads.ts): the kit opens a collection for a refresh's reads. */
  const pages = createPageReads();
  const tables = tableNamespaces(lists, ctx, pages);
  const parts = createParts(generation, ctx, pages);
  const { resolveGeneration } = parts;

  return {
    /** Sends any named endpoint: the escape hatch under the typed methods. */
    send: transport.send,
    /** Sends any route of the collection table by its definition (schemas/collections.ts). */
    sendRoute: transport.sendRoute,
    /** Every collection's pages, by collection name (each namespace's `list`). */
    lists,
    // A namespace per collection of the table with its pages; the namespaces below add each
    // collection's own calls (a collection without them yet is listed all the same).
    ...namespaces(lists),
    // The current API's own collections: get, list, create exactly once and update, from the table.
    ...tables,
    account_connections: { ...tables.account_connections, ...steeringPool(transport.sendRoute, pages) },
    /** Which extension routes the server has (asked once per collection). */
    capabilities,
    /** How a lost create is checked in the list: a later run's settling checks the same way (kit/unsettled.ts). */
    reconcile: options.reconcile,
    /** Which API generation the client writes in, and how it was chosen. */
    generation,
    /**
     * Resolves the generation (asking the service once if nothing it sent could tell). The public
     * name predates the glossary (ARCHITECTURE.md): "settle" elsewhere decides a create's outcome.
     */
    settleGeneration: resolveGeneration,
    /** Resolves the generation for checks, once: failing if the service cannot be asked (see client-parts.ts). */
    probeGeneration: parts.probeGeneration,
    /** Reads in pages: the kit opens a collection for a refresh's reads and closes it at anything else. */
    pages,
    agents: agentsClient(parts, lists.agents),
    voices: voicesClient(parts, lists.voices),
    actions: actionsClient(parts, lists.actions),
    webhooks: webhooksClient(parts, lists.webhooks),
    numbers: numbersClient(parts, lists.numbers),
    calls: callsClient(parts, lists.calls),
    /** Numbers of the team's own Twilio account, linked (current API only). */
    linkedNumbers: linkedNumbersClient(ctx, generation, resolveGeneration, pages),
    /** The team's plan and this month's minutes (current API only). */
    usage: usageClient(transport, generation, resolveGeneration),
  };
}

/** One namespace per collection of the table, holding its pages as `list`. */
export type CollectionNamespaces = { readonly [C in keyof CollectionPagers]: { list: CollectionPagers[C] } };

function namespaces(lists: CollectionPagers): CollectionNamespaces {
  // Object.fromEntries cannot carry each key's own type; each value is its own collection's pager.
  return Object.fromEntries(COLLECTION_NAMES.map((c) => [c, { list: lists[c] }])) as CollectionNamespaces;
}
