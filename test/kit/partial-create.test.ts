// A create the service carried out but answered unreadably (a 2xx whose body carries the new id
// and nothing else usable): for every kind, the id is kept as a tracked partial create, and the
// engine's retry of it (an update) finishes it without making the object a second time.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { PartialCreateError } from "../../provider/resources/kit/errors.js";
import { KIND_NAMES, runtimeFor } from "../../provider/dynamic/runtimes.js";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";
import { agent, callOf, USER, voice } from "../helpers/wire-fixtures.js";

let server: RecordingServer | undefined;
afterEach(async () => server?.close());

const CONNECTION = randomUUID();

interface Case {
  kind: string;
  inputs: Record<string, unknown>;
  /** The route that makes the object, and the collection whose list/get routes read it. */
  create: string;
  collection: string;
  /** The object as the service holds it once made. */
  live: { id: string } & Record<string, unknown>;
  /** A kind of the current API only: the provider is set to it, and the direct read answers 404 until the create. */
  current?: true;
}

const cases: Case[] = [
  {
    kind: "Agent",
    inputs: { prompt: "p", voice: voice.id },
    create: "/v1/agents/create",
    collection: "agents",
    live: { ...agent, id: randomUUID() },
  },
  {
    kind: "Voice",
    inputs: { voiceName: "alloy", pitch: 0, rate: 1 },
    create: "/v1/voices/create",
    collection: "voices",
    live: { ...voice, id: randomUUID() },
  },
  {
    kind: "Action",
    inputs: { type: "action_end_conversation", config: {} },
    create: "/v1/actions/create",
    collection: "actions",
    live: { id: randomUUID(), user_id: USER, type: "action_end_conversation", config: {} },
  },
  {
    kind: "Webhook",
    inputs: { url: "https://hooks.example/x", subscriptions: ["event_message"] },
    create: "/v1/webhooks/create",
    collection: "webhooks",
    live: {
      id: randomUUID(),
      user_id: USER,
      url: "https://hooks.example/x",
      method: "POST",
      subscriptions: ["event_message"],
    },
  },
  {
    kind: "PhoneNumber",
    inputs: { number: "+15550010001", inboundAgent: agent.id },
    create: "/v1/numbers/update",
    collection: "numbers",
    live: { id: randomUUID(), user_id: USER, number: "+15550010001", active: true, inbound_agent: agent },
  },
  {
    kind: "PurchasedNumber",
    inputs: { areaCode: "415" },
    create: "/v1/numbers/buy",
    collection: "numbers",
    live: { id: randomUUID(), user_id: USER, number: "+14155550100", active: true, inbound_agent: null },
  },
  {
    kind: "LinkedNumber",
    inputs: { number: "+16465550100", telephonyAccountConnection: CONNECTION, inboundAgent: agent.id },
    create: "/v1/numbers/link",
    collection: "numbers",
    live: {
      id: randomUUID(),
      user_id: USER,
      number: "+16465550100",
      active: true,
      inbound_agent: agent.id,
      telephony_account_connection: CONNECTION,
    },
    current: true,
  },
  {
    kind: "Call",
    inputs: { fromNumber: "+15550010001", toNumber: "+15557650000", agent: agent.id },
    create: "/v1/calls/create",
    collection: "calls",
    live: callOf(randomUUID()),
  },
  {
    kind: "Prompt",
    inputs: { content: "p" },
    create: "/v1/prompts/create",
    collection: "prompts",
    live: { id: randomUUID(), user_id: USER, content: "p" },
  },
  {
    kind: "VectorDatabase",
    inputs: { index: "i", apiKey: "k", apiEnvironment: "e" },
    create: "/v1/vector_databases/create",
    collection: "vector_databases",
    live: {
      id: randomUUID(),
      user_id: USER,
      type: "vector_database_pinecone",
      index: "i",
      api_key: "k",
      api_environment: "e",
    },
  },
  {
    kind: "AccountConnection",
    inputs: { type: "account_connection_openai", openaiApiKey: "k" },
    create: "/v1/account_connections/create",
    collection: "account_connections",
    live: { id: randomUUID(), user_id: USER, type: "account_connection_openai", credentials: { openai_api_key: "k" } },
  },
];

/** A service that makes the object on its create route but answers that one request with only its id. */
async function serve(c: Case) {
  let made = false;
  server = await startRecordingServer((req) => {
    if (req.path === c.create && !made) {
      made = true;
      return { json: { id: c.live.id, unexpected: true } };
    }
    if (req.path === `/v1/${c.collection}/list`) {
      const items = made ? [c.live] : [];
      return { json: { items, page: 1, size: 100, total: items.length, has_more: false } };
    }
    if (c.current && !made && req.path === `/v1/${c.collection}`) return { status: 404, json: { detail: "Not Found" } };
    if (req.path.startsWith(`/v1/${c.collection}`)) return { json: c.live };
    return { status: 404, json: { detail: "Not Found" } };
  });
  const api = c.current ? "2024" : undefined;
  return {
    baseUrl: server.url,
    token: `t-${randomUUID()}`,
    config: { get: (k: string) => (k === "voiceagent:api" ? api : undefined) },
  };
}

describe("an unreadable create answer that carries an id is never lost", () => {
  it("the table covers every kind", () => {
    expect(cases.map((c) => c.kind).sort()).toEqual([...KIND_NAMES].sort());
  });

  it.each(cases)(
    "$kind: tracked as a partial create, then finished by the next up without making another",
    async (c) => {
      const settings = await serve(c);
      const rt = runtimeFor(c.kind);
      const err = await rt.create(settings, c.inputs).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PartialCreateError);
      const partial = err as PartialCreateError;
      expect(partial.id).toBe(c.live.id);
      // The user is told that it exists, that it is tracked, and what to run.
      expect(partial.message).toContain(c.live.id);
      expect(partial.message).toMatch(/exists|placed/);
      expect(partial.message).toMatch(/tracked/);
      expect(partial.message).toMatch(/`pulumi up`/);
      const hits = () => server!.requests.filter((r) => r.method === "POST" && r.path === c.create).length;
      expect(hits()).toBe(1);

      // The engine retries a resource with initialization errors by updating it with what was recorded.
      const { outs } = await rt.update(settings, partial.id, partial.properties, c.inputs);
      expect(outs).toMatchObject({ userId: USER });
      // A binding is made by the same route that sets it again; nothing else is made twice.
      expect(hits()).toBe(c.kind === "PhoneNumber" ? 2 : 1);
      // And the next diff sees nothing to do.
      expect(await rt.diff(settings, partial.id, outs ?? {}, c.inputs)).toMatchObject({ changes: false });
    },
  );
});

describe("finishing a partial create of a kind that cannot change in place", () => {
  it("a bought number outside the area code asked for is recorded as it is, and nothing is sent", async () => {
    const c = cases.find((k) => k.kind === "PurchasedNumber")!;
    const outside = { ...c, live: { ...c.live, id: randomUUID(), number: "+12125550100" } };
    const settings = await serve(outside);
    const rt = runtimeFor(c.kind);
    const partial = (await rt.create(settings, c.inputs).catch((e: unknown) => e)) as PartialCreateError;
    const err = await rt.update(settings, partial.id, partial.properties, c.inputs).catch((e: unknown) => e);
    // Still partial, now with the live number recorded, so the next diff sees the difference.
    expect(err).toBeInstanceOf(PartialCreateError);
    expect(err).toMatchObject({ id: outside.live.id, properties: { number: "+12125550100" } });
    // The engine prints only the reasons of a partial create: they name the object, what differs and what to run.
    const shown = (err as PartialCreateError).reasons.join("\n");
    expect(shown).toContain(outside.live.id);
    expect(shown).toContain("areaCode");
    expect(shown).toMatch(/`pulumi (preview|up)`/);
    expect(await rt.diff(settings, partial.id, (err as PartialCreateError).properties, c.inputs)).toMatchObject({
      replaces: ["areaCode"],
    });
    expect(server!.requests.filter((r) => r.method === "POST").map((r) => r.path)).toEqual(["/v1/numbers/buy"]);
  });
});

describe("a partial create carries what the next up needs", () => {
  it.each(cases.filter((c) => c.kind === "Agent" || c.kind === "PurchasedNumber"))(
    "$kind: its properties keep the serialized provider, so the next up asks the service instead of recording the inputs",
    async (c) => {
      const settings = await serve(c);
      const rt = runtimeFor(c.kind);
      const provider = "exports.handler = 'the serialized provider'";
      const partial = (await rt
        .create(settings, { ...c.inputs, __provider: provider })
        .catch((e: unknown) => e)) as PartialCreateError;
      expect(partial).toBeInstanceOf(PartialCreateError);
      expect(partial.properties.__provider).toBe(provider);
      // The engine's next up: update with the recorded properties and the program's inputs, both
      // holding `__provider`. It must reach the service (update or read back), not record the inputs blind.
      const before = server!.requests.length;
      const { outs } = await rt.update(settings, partial.id, partial.properties, { ...c.inputs, __provider: provider });
      expect(server!.requests.length).toBeGreaterThan(before);
      expect(outs).toMatchObject({ userId: USER });
    },
  );
});
