import type {
  ActionWrite,
  AgentCreate,
  AgentUpdate,
  CallCreate,
  EndpointName,
  Page,
  PhoneNumberBuy,
  QueryOf,
  ResponseOf,
  VoiceWrite,
  WebhookWrite,
} from "../schemas/index.js";
import { mergeOptions, type ClientOptionsInput } from "./options.js";
import { createTransport, type Send } from "./transport.js";

/** What `createClient` needs: where the service is, the token, and any option to override. */
export interface CreateClientInput extends ClientOptionsInput {
  /** e.g. `https://api.example.com` or `http://127.0.0.1:8787`; paths start with /v1. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`; never logged or put in errors. */
  token: string;
}

/** A typed client for every endpoint of the service. */
export type VoiceAgentClient = ReturnType<typeof createClient>;

/**
 * Creates a client. Every call is typed, validated against its response schema, retried where
 * safe, and capped by one concurrency limit.
 * @example
 * const client = createClient({ baseUrl: "http://127.0.0.1:8787", token: process.env.VOICEAGENT_TOKEN! });
 * const agent = await client.agents.create({ prompt: "You are helpful.", voice: voiceId });
 */
export function createClient(input: CreateClientInput) {
  const { baseUrl, token, ...rest } = input;
  if (!baseUrl) throw new TypeError("createClient: baseUrl is required");
  if (!token) throw new TypeError("createClient: token is required");
  const send = createTransport(baseUrl, token, mergeOptions(rest));
  const list = <N extends ListEndpoint>(name: N) => ({
    page: (page = 1, size = 50) => send(name, { query: { page, size } as unknown as QueryOf<N> }) as Promise<ResponseOf<N>>,
    all: () => listAll(send, name),
  });

  return {
    /** Sends any named endpoint: the escape hatch under the typed methods. */
    send,
    agents: {
      create: (body: AgentCreate) => send("createAgent", { body }),
      get: (id: string) => send("getAgent", { query: { id } }),
      update: (id: string, body: AgentUpdate) => send("updateAgent", { query: { id }, body }),
      list: list("listAgents"),
    },
    voices: {
      create: (body: VoiceWrite) => send("createVoice", { body }),
      get: (id: string) => send("getVoice", { query: { id } }),
      update: (id: string, body: VoiceWrite) => send("updateVoice", { query: { id }, body }),
      list: list("listVoices"),
    },
    actions: {
      create: (body: ActionWrite) => send("createAction", { body }),
      get: (id: string) => send("getAction", { query: { id } }),
      update: (id: string, body: ActionWrite) => send("updateAction", { query: { id }, body }),
      list: list("listActions"),
    },
    webhooks: {
      create: (body: WebhookWrite) => send("createWebhook", { body }),
      get: (id: string) => send("getWebhook", { query: { id } }),
      update: (id: string, body: WebhookWrite) => send("updateWebhook", { query: { id }, body }),
      list: list("listWebhooks"),
    },
    numbers: {
      get: (phoneNumber: string) => send("getNumber", { query: { phone_number: phoneNumber } }),
      /** Binds `inboundAgent` to the number, or unbinds it with `null`. */
      update: (phoneNumber: string, inboundAgent: string | null) =>
        send("updateNumber", { query: { phone_number: phoneNumber }, body: { inbound_agent: inboundAgent } }),
      cancel: (phoneNumber: string) => send("cancelNumber", { query: { phone_number: phoneNumber } }),
      buy: (body?: PhoneNumberBuy) => send("buyNumber", body === undefined ? {} : { body }),
      list: list("listNumbers"),
    },
    calls: {
      create: (body: CallCreate) => send("createCall", { body }),
      get: (id: string) => send("getCall", { query: { id } }),
      end: (id: string) => send("endCall", { query: { id } }),
      list: list("listCalls"),
    },
  };
}

type ListEndpoint = Extract<EndpointName, `list${string}`>;
type ItemOf<N extends ListEndpoint> = ResponseOf<N> extends Page<infer T> ? T : never;

async function listAll<N extends ListEndpoint>(send: Send, name: N): Promise<ItemOf<N>[]> {
  const items: ItemOf<N>[] = [];
  for (let page = 1; ; page++) {
    const res = (await send(name, { query: { page, size: 100 } as unknown as QueryOf<N> })) as unknown as Page<ItemOf<N>>;
    items.push(...res.items);
    if (!res.has_more || res.items.length === 0) return items;
  }
}
