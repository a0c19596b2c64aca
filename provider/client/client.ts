import {
  PhoneNumberBuySchema,
  type ActionWrite,
  type AgentCreate,
  type AgentUpdate,
  type CallCreate,
  type PhoneNumber,
  type PhoneNumberBuy,
  type VoiceWrite,
  type WebhookWrite,
} from "../schemas/index.js";
import { createCapabilities, type Collection, type ExtensionsSetting } from "./capabilities.js";
import { matchesSent } from "./match.js";
import { mergeOptions, type ClientOptionsInput } from "./options.js";
import { pager } from "./pager.js";
import { MemoryLedger, type CreateLedger } from "./ledger.js";
import { Snapshots } from "./snapshots.js";
import { createOnce } from "./reconcile.js";
import { createTransport } from "./transport.js";

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
  const { baseUrl, token, extensions, ledger = new MemoryLedger(), ...rest } = input;
  if (!baseUrl) throw new TypeError("createClient: baseUrl is required");
  if (!token) throw new TypeError("createClient: token is required");
  const options = mergeOptions(rest);
  const transport = createTransport(baseUrl, token, options);
  const { send } = transport;
  const capabilities = createCapabilities(send, extensions);
  const ctx = { transport, snapshots: new Snapshots(capabilities), ledger, options };

  const agents = pager((page, size, deadline) => send("listAgents", { query: { page, size }, deadline }));
  const voices = pager((page, size, deadline) => send("listVoices", { query: { page, size }, deadline }));
  const actions = pager((page, size, deadline) => send("listActions", { query: { page, size }, deadline }));
  const webhooks = pager((page, size, deadline) => send("listWebhooks", { query: { page, size }, deadline }));
  const numbers = pager((page, size, deadline) => send("listNumbers", { query: { page, size }, deadline }));
  const calls = pager((page, size, deadline) => send("listCalls", { query: { page, size }, deadline }));
  /** The exactly-once create of one kind, matching on every field sent. */
  const once = <T extends { id: string }>(kind: Collection, noun: string, body: object, post: (deadline: number) => Promise<T>, all: (deadline: number) => Promise<T[]>) =>
    createOnce({ kind, noun, body, overlaps: (other) => matchesSent(body, other), send: post, list: all, matches: (item) => matchesSent(body, item) }, ctx);

  return {
    /** Sends any named endpoint: the escape hatch under the typed methods. */
    send,
    /** Which extension routes the server has (asked once per kind). */
    capabilities,
    agents: {
      create: (body: AgentCreate) => once("agents", "agent", body, (deadline) => send("createAgent", { body, deadline }), agents.all),
      get: (id: string) => send("getAgent", { query: { id } }),
      update: (id: string, body: AgentUpdate) => send("updateAgent", { query: { id }, body }),
      list: agents,
    },
    voices: {
      create: (body: VoiceWrite) => once("voices", "voice", body, (deadline) => send("createVoice", { body, deadline }), voices.all),
      get: (id: string) => send("getVoice", { query: { id } }),
      update: (id: string, body: VoiceWrite) => send("updateVoice", { query: { id }, body }),
      list: voices,
    },
    actions: {
      create: (body: ActionWrite) => once("actions", "action", body, (deadline) => send("createAction", { body, deadline }), actions.all),
      get: (id: string) => send("getAction", { query: { id } }),
      update: (id: string, body: ActionWrite) => send("updateAction", { query: { id }, body }),
      list: actions,
    },
    webhooks: {
      create: (body: WebhookWrite) => once("webhooks", "webhook", body, (deadline) => send("createWebhook", { body, deadline }), webhooks.all),
      get: (id: string) => send("getWebhook", { query: { id } }),
      update: (id: string, body: WebhookWrite) => send("updateWebhook", { query: { id }, body }),
      list: webhooks,
    },
    numbers: {
      get: (phoneNumber: string) => send("getNumber", { query: { phone_number: phoneNumber } }),
      /** Binds `inboundAgent` to the number, or unbinds it with `null`. */
      update: (phoneNumber: string, inboundAgent: string | null) =>
        send("updateNumber", { query: { phone_number: phoneNumber }, body: { inbound_agent: inboundAgent } }),
      cancel: (phoneNumber: string) => send("cancelNumber", { query: { phone_number: phoneNumber } }),
      /** Buys a number exactly once (a new active number in the area code, bound as asked). */
      buy: (body?: PhoneNumberBuy) =>
        createOnce<PhoneNumber>(
          {
            kind: "numbers",
            noun: "phone number",
            body,
            overlaps: (other) => mayBuyMatch(other, body),
            send: (deadline) => send("buyNumber", body === undefined ? { deadline } : { body, deadline }),
            list: numbers.all,
            matches: (n) => n.active && isBought(n, body),
          },
          ctx,
        ),
      list: numbers,
    },
    calls: {
      /** Places a call at most once: an unknown outcome is checked in the list, never re-dialled. */
      create: (body: CallCreate) =>
        createOnce(
          {
            kind: "calls",
            noun: "call",
            atMostOnce: true,
            body,
            overlaps: (other) => matchesSent(body, other),
            send: (deadline) => send("createCall", { body, deadline }),
            list: calls.all,
            matches: (c) => c.status !== "ended" && matchesSent(body, c),
          },
          ctx,
        ),
      get: (id: string) => send("getCall", { query: { id } }),
      end: (id: string) => send("endCall", { query: { id } }),
      list: calls,
    },
  };
}

/** Whether a buy that sent `other` could make a number that `isBought` takes for `body` (when unsure: yes). */
function mayBuyMatch(other: unknown, body: PhoneNumberBuy | undefined): boolean {
  const parsed = PhoneNumberBuySchema.optional().safeParse(other);
  if (!parsed.success) return true;
  const area = body?.area_code;
  const theirs = parsed.data?.area_code;
  return (!area || !theirs || area === theirs) && (parsed.data?.inbound_agent ?? null) === (body?.inbound_agent ?? null);
}

/** A number numbers/buy would have made for this body: its area code, and its binding if one was asked. */
function isBought(n: PhoneNumber, body: PhoneNumberBuy | undefined): boolean {
  const area = body?.area_code;
  if (area && !n.number.startsWith(`+1${area}`)) return false;
  return (n.inbound_agent?.id ?? null) === (body?.inbound_agent ?? null);
}
