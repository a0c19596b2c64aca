import type { z } from "zod";
import {
  AgentSchema,
  COLLECTION_NAMES,
  CallSchema,
  collections,
  PhoneNumberBuySchema,
  PhoneNumberSchema,
  type ActionBody,
  type AgentUpdateWrite,
  type AgentWrite,
  type CallCreate,
  type PhoneNumber,
  type PhoneNumberBuy,
  type VoiceWrite,
  type WebhookWrite,
  endpoints,
} from "../schemas/index.js";
import { createCapabilities, isRouteMissing, type CollectionName, type ExtensionsSetting } from "./capabilities.js";
import {
  ApiGenerationError,
  createGeneration,
  generationOf,
  type ApiGeneration,
  type ApiSetting,
} from "./generation.js";
import {
  agentCreateBody,
  agentCurrentFieldsOf,
  agentUpdateBody,
  numberUpdateBody,
  voiceBody,
  actionBody,
  actionGeneration,
  type Encoded,
} from "./wire.js";
import { matchesSent } from "./match.js";
import { mergeOptions, type ClientOptionsInput } from "./options.js";
import type { Listing } from "./listing.js";
import { createPageReads } from "./page-reads.js";
import { collectionPagers, pager, readPage, type CollectionPagers } from "./pager.js";
import { tableNamespaces } from "./collection-client.js";
import { MemoryLedger, type CreateLedger } from "./ledger.js";
import { ClientSettingsError } from "./settings-error.js";
import { Snapshots } from "./snapshots.js";
import { createOnce } from "./reconcile.js";
import { createTransport } from "./transport.js";
import { linkedNumbersClient } from "./linked-numbers.js";
import { usageClient } from "./usage.js";
import { steeringPool } from "./current-collections.js";

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
  const { send } = transport;
  /**
   * Asks the service which generation it speaks: one page of one agent, a read that carries
   * nothing of what the program declares. Its answer is observed like any other.
   */
  const askAgentList = async (): Promise<ApiGeneration | undefined> => {
    try {
      await send("listAgents", { query: { page: 1, size: 1 } });
      return generation.known();
    } catch (err) {
      // The interface has no list routes; the current API has them all.
      if (isRouteMissing(err)) return "2023";
      throw err;
    }
  };
  /** The generation for a write that differs between them; asks the agent list once if unknown (a failed ask assumes 2023). */
  const resolveGeneration = () => generation.resolve(() => askAgentList().catch(() => undefined));
  let probed: Promise<ApiGeneration> | undefined;
  /**
   * The generation the kinds' checks go by, resolved once for this client (one provider
   * configuration) before the first check that depends on it answers. It asks even when an answer
   * seen before told (a refresh's reads), so a preview sends the same requests whatever ran first.
   * Unlike a write's, a failed ask is not taken for 2023 but rejects, the same for every check.
   */
  const probeGeneration = () => (probed ??= askAgentList().then((g) => generation.resolve(async () => g)));
  /** For a write both generations take alike: the one known, else the interface's. */
  const likely = (): ApiGeneration => generation.known() ?? "2023";
  const encoded = <T>(e: Encoded<T>, method: string, path: string): T => {
    if ("refused" in e) throw new ApiGenerationError(e.refused, method, path, generation);
    return e.body;
  };
  const capabilities = createCapabilities(transport.sendRoute, extensions);
  const ctx = { transport, snapshots: new Snapshots(capabilities), ledger, options };

  // Every collection's pages, from the wire layer's collection table.
  const lists = collectionPagers(transport.sendRoute);
  const { agents, voices, actions, webhooks, numbers, calls } = lists;
  /** Reads in pages (page-reads.ts): the kit opens a collection for a refresh's reads. */
  const pages = createPageReads();
  const tables = tableNamespaces(lists, ctx, pages);
  const byId = <T extends { id: string }>(name: CollectionName, list: { listing: () => Promise<Listing<T>> }) =>
    pages.collection(name, { list: () => list.listing(), keyOf: (item) => item.id });
  /**
   * A 2024 list page names an agent's prompt by the Prompt's id when it is one of the team's Prompts:
   * such an item lacks the prompt's text that a read gives, so it is left unread here and read on its own.
   */
  const agentReads = pages.collection("agents", {
    list: pager(endpoints.listAgents, (page, size, deadline) =>
      send("listAgents", { query: { page, size }, deadline }).then((p) => {
        const byPromptId = (item: unknown) =>
          generationOf(p) === "2024" && isRecord(item) && typeof item.prompt === "string";
        const read = readPage(AgentSchema, { ...p, items: p.items.filter((i) => !byPromptId(i)) });
        const lacking = p.items.filter(byPromptId).map((item) => ({
          ...(isRecord(item) && typeof item.id === "string" ? { id: item.id } : {}),
          why: "its prompt is given by id in a list",
        }));
        return { ...read, unreadable: [...(read.unreadable ?? []), ...lacking] };
      }),
    ).listing,
    keyOf: (a) => a.id,
  });
  const voiceReads = byId("voices", voices);
  const actionReads = byId("actions", actions);
  const webhookReads = byId("webhooks", webhooks);
  const callReads = byId("calls", calls);
  const numberReads = pages.collection("numbers", { list: () => numbers.listing(), keyOf: (n) => n.number });
  /** A write's answer, its collection's listing dropped before and after it (read-your-writes). */
  const wrote = <T>(collection: CollectionName, write: Promise<T>): Promise<T> =>
    pages.writing(collection, () => write);
  /** The exactly-once create in one collection, matching on every field sent but its credentials. */
  const once = <T extends { id: string }>(
    collection: CollectionName,
    noun: string,
    body: object,
    post: (deadline: number) => Promise<T>,
    listing: (deadline: number) => Promise<Listing<T>>,
  ) =>
    wrote(
      collection,
      createOnce(
        {
          collection,
          noun,
          body,
          unechoed: collections[collection].secrets,
          overlaps: (other) => matchesSent(body, other, collections[collection].secrets),
          send: post,
          list: listing,
          matches: (item) => matchesSent(body, item, collections[collection].secrets),
        },
        ctx,
      ),
    );

  return {
    /** Sends any named endpoint: the escape hatch under the typed methods. */
    send,
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
    /** Resolves the generation for checks, once: failing if the service cannot be asked (see probeGeneration). */
    probeGeneration,
    /** Reads in pages: the kit opens a collection for a refresh's reads and closes it at anything else. */
    pages,
    agents: {
      // Both generations take the prompt as text; the current one is sent it inline as `{content}`.
      // A body with the current API's own fields (or a prompt object's id) needs the generation
      // settled first: the interface cannot take them, and the client says so before sending.
      create: async (body: AgentWrite) => {
        const gen = agentCurrentFieldsOf(body).length ? await resolveGeneration() : undefined;
        return once(
          "agents",
          "agent",
          body,
          (deadline) =>
            send("createAgent", {
              body: encoded(agentCreateBody(gen ?? likely(), body), "POST", "/v1/agents/create"),
              deadline,
            }),
          agents.listing,
        );
      },
      get: (id: string) => agentReads.read(id, () => send("getAgent", { query: { id } })),
      update: async (id: string, body: AgentUpdateWrite) => {
        // A clear (null) differs in kind between the generations, and only the current API takes
        // its own fields: resolve it first then.
        const gen =
          body.initial_message === null || body.webhook === null || agentCurrentFieldsOf(body).length
            ? await resolveGeneration()
            : likely();
        return wrote(
          "agents",
          send("updateAgent", {
            query: { id },
            body: encoded(agentUpdateBody(gen, body), "POST", "/v1/agents/update"),
          }),
        );
      },
      list: agents,
    },
    voices: {
      // Async, so a refusal before sending is a rejected promise like every other failure.
      create: async (body: VoiceWrite) => {
        const wire = encoded(voiceBody(generation.known() ?? voiceGeneration(body), body), "POST", "/v1/voices/create");
        return once(
          "voices",
          "voice",
          wire,
          (deadline) => send("createVoice", { body: wire, deadline }),
          voices.listing,
        );
      },
      get: (id: string) => voiceReads.read(id, () => send("getVoice", { query: { id } })),
      update: async (id: string, body: VoiceWrite) =>
        wrote(
          "voices",
          send("updateVoice", {
            query: { id },
            body: encoded(voiceBody(generation.known() ?? voiceGeneration(body), body), "POST", "/v1/voices/update"),
          }),
        ),
      list: voices,
    },
    actions: {
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
      get: (id: string) => actionReads.read(id, () => send("getAction", { query: { id } })),
      update: async (id: string, body: ActionBody) => {
        const gen = generation.known() ?? actionGeneration(body);
        const wire = encoded(actionBody(gen, body, "update"), "POST", "/v1/actions/update");
        return wrote("actions", send("updateAction", { query: { id }, body: wire }));
      },
      list: actions,
    },
    webhooks: {
      create: (body: WebhookWrite) =>
        once("webhooks", "webhook", body, (deadline) => send("createWebhook", { body, deadline }), webhooks.listing),
      get: (id: string) => webhookReads.read(id, () => send("getWebhook", { query: { id } })),
      update: (id: string, body: WebhookWrite) => wrote("webhooks", send("updateWebhook", { query: { id }, body })),
      list: webhooks,
    },
    numbers: {
      get: (phoneNumber: string) =>
        numberReads.read(phoneNumber, () => send("getNumber", { query: { phone_number: phoneNumber } })),
      /** Binds `inboundAgent` to the number, or unbinds it with `null`. */
      update: async (phoneNumber: string, inboundAgent: string | null) => {
        const gen = inboundAgent === null ? await resolveGeneration() : likely();
        const body = encoded(numberUpdateBody(gen, inboundAgent), "POST", "/v1/numbers/update");
        return wrote("numbers", send("updateNumber", { query: { phone_number: phoneNumber }, body }));
      },
      /**
       * Cancels a number for good. Any 2xx means it is cancelled: the number as the answer holds
       * it, or undefined when the answer could not be read (never an error: it was done).
       */
      cancel: async (phoneNumber: string) =>
        readAck(
          PhoneNumberSchema,
          await wrote("numbers", send("cancelNumber", { query: { phone_number: phoneNumber } })),
        ),
      /** Buys a number exactly once (a new active number in the area code, bound as asked). */
      buy: (body?: PhoneNumberBuy) =>
        wrote(
          "numbers",
          createOnce<PhoneNumber>(
            {
              collection: "numbers",
              noun: "phone number",
              body,
              overlaps: (other) => mayBuyMatch(other, body),
              send: (deadline) => send("buyNumber", body === undefined ? { deadline } : { body, deadline }),
              list: numbers.listing,
              matches: (n) => n.active !== false && isBought(n, body),
            },
            ctx,
          ),
        ),
      list: numbers,
    },
    calls: {
      /** Places a call at most once: an unknown outcome is checked in the list, never re-dialled. */
      create: (body: CallCreate) =>
        wrote(
          "calls",
          createOnce(
            {
              collection: "calls",
              noun: "call",
              atMostOnce: true,
              body,
              unechoed: collections.calls.secrets,
              overlaps: (other) => matchesSent(body, other, collections.calls.secrets),
              send: (deadline) => send("createCall", { body, deadline }),
              list: calls.listing,
              matches: (c) => c.status !== "ended" && matchesSent(body, c, collections.calls.secrets),
            },
            ctx,
          ),
        ),
      get: (id: string) => callReads.read(id, () => send("getCall", { query: { id } })),
      /** Ends a call: any 2xx means it is ended; the call as answered, or undefined if unreadable. */
      end: async (id: string) => readAck(CallSchema, await wrote("calls", send("endCall", { query: { id } }))),
      list: calls,
    },
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

/**
 * The generation a voice is written in when nothing has told it yet, from the voice itself: the
 * 2023 shape (a name, pitch and rate) is also a valid 2024 Azure voice, so it is sent as it is; a
 * voice given only a 2024 type's own fields can only be meant for 2024. No request is needed.
 */
function voiceGeneration(v: VoiceWrite): ApiGeneration {
  return v.voice_name !== undefined && v.pitch !== undefined && v.rate !== undefined ? "2023" : "2024";
}

/** An irreversible act's answer, read if it can be; undefined if not (the act was done all the same). */
function readAck<T extends z.ZodType>(schema: T, answer: unknown): z.output<T> | undefined {
  const read = schema.safeParse(answer);
  return read.success ? read.data : undefined;
}

/** Whether a buy that sent `other` could make a number that `isBought` takes for `body` (when unsure: yes). */
function mayBuyMatch(other: unknown, body: PhoneNumberBuy | undefined): boolean {
  const parsed = PhoneNumberBuySchema.optional().safeParse(other);
  if (!parsed.success) return true;
  const area = body?.area_code;
  const theirs = parsed.data?.area_code;
  return (
    (!area || !theirs || area === theirs) && (parsed.data?.inbound_agent ?? null) === (body?.inbound_agent ?? null)
  );
}

/** A number numbers/buy would have made for this body: its area code, and its binding if one was asked. */
function isBought(n: PhoneNumber, body: PhoneNumberBuy | undefined): boolean {
  const area = body?.area_code;
  if (area && !n.number.startsWith(`+1${area}`)) return false;
  return (n.inbound_agent?.id ?? null) === (body?.inbound_agent ?? null);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
