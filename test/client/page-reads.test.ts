// Reads in pages (issue 32, client/page-reads.ts): a refresh's reads, made as the engine makes them
// (the kinds' runtime `read`, which both entries call), list each collection once instead of one GET
// per resource; an object the listing lacks is read on its own and kept; a write drops the listing;
// anything but a read ends the refresh. Requests are counted by the emulator.
import { randomUUID } from "node:crypto";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { afterEach, describe, expect, it } from "vitest";
import { createPageReads, LISTING_MAX_AGE_MS } from "../../provider/client/page-reads.js";
import { listingOf } from "../../provider/client/listing.js";
import { Configuration } from "../../provider/resources/kit/configuration.js";
import { runtimeFor as runtimeIn } from "../../provider/dynamic/runtimes.js";
import { Host } from "../../provider/host.js";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";

/** This file is one provider process: one host, whose clients keep their listings between reads. */
const host = new Host();
const runtimeFor = (kind: Parameters<typeof runtimeIn>[0]) => runtimeIn(kind, host);

let emu: RunningEmulator | undefined;
let server: RecordingServer | undefined;
afterEach(async () => {
  await emu?.close();
  await server?.close();
  emu = undefined;
  server = undefined;
});

/** An emulator with `n` agents of one user, and settings with a token of their own (so a client of their own). */
async function withAgents(n: number) {
  const token = `pages-${randomUUID()}`;
  emu = await startEmulator({ tokens: [token], seed: true });
  const voice = emu.seeds.get(token)!.voices[0]!;
  const user = emu.store.userFor(token).userId;
  const agents = Array.from({ length: n }, (_, i) =>
    emu!.service.createAgent(user, { prompt: `You are agent ${i}.`, voice, actions: [] }),
  );
  emu.resetStats();
  return { emu, settings: { baseUrl: emu.url, token }, agents, voice, user };
}

/** What the runtime recorded for an agent: its prompt and voice are enough for a read. */
const recordedOf = (a: { prompt: string; voice: { id: string } }) => ({ prompt: a.prompt, voice: a.voice.id });

const gets = (e: RunningEmulator) => e.stats.byRoute["GET /v1/agents"] ?? 0;
const lists = (e: RunningEmulator) => e.stats.byRoute["GET /v1/agents/list"] ?? 0;

describe("a refresh reads in pages", () => {
  it("N agents: the list's pages (100 a page) and no GET per agent, each read as a GET would", async () => {
    const { emu, settings, agents } = await withAgents(250);
    const read = await Promise.all(agents.map((a) => runtimeFor("Agent").read(settings, a.id, recordedOf(a))));
    for (const [i, r] of read.entries()) {
      expect(r.id).toBe(agents[i]!.id);
      expect(r.props?.prompt).toBe(`You are agent ${i}.`);
    }
    expect(gets(emu)).toBe(0);
    expect(lists(emu)).toBe(3);
    expect(emu.stats.total).toBe(3);
  });

  it("an agent a lagging list leaves out is read on its own and kept; one deleted is still gone by its own 404", async () => {
    const { emu, settings, agents } = await withAgents(5);
    const lagging = agents[2]!;
    emu.faults.add({ phase: "after", route: "/v1/agents/list", items: { where: { id: lagging.id }, omit: true } });
    const read = await Promise.all(agents.map((a) => runtimeFor("Agent").read(settings, a.id, recordedOf(a))));
    expect(read[2]).toMatchObject({ id: lagging.id, props: { prompt: lagging.prompt } });
    expect(read.every((r) => r.props !== undefined)).toBe(true);
    expect(gets(emu)).toBe(1);
    // An id no list nor read knows: only the direct read's 404 says it is gone.
    const gone = await runtimeFor("Agent").read(settings, randomUUID(), recordedOf(lagging));
    expect(gone).toEqual({ id: "", props: {} });
    expect(gets(emu)).toBe(2);
  });

  it("an item the list cannot read is read on its own", async () => {
    const { emu, settings, agents } = await withAgents(3);
    const odd = agents[0]!;
    emu.faults.add({
      phase: "after",
      route: "/v1/agents/list",
      items: { where: { id: odd.id }, set: { user_id: 42 } },
    });
    const read = await runtimeFor("Agent").read(settings, odd.id, recordedOf(odd));
    expect(read.props?.prompt).toBe(odd.prompt);
    await runtimeFor("Agent").read(settings, agents[1]!.id, recordedOf(agents[1]!));
    expect([lists(emu), gets(emu)]).toEqual([1, 1]);
  });

  it("a write to the collection drops the listing: the next read shows what was written", async () => {
    const { emu, settings, agents } = await withAgents(3);
    const [a, b] = agents;
    await runtimeFor("Agent").read(settings, a!.id, recordedOf(a!));
    const client = new Configuration(host, settings).client();
    await client.agents.update(b!.id, { prompt: "You were changed." });
    const after = await runtimeFor("Agent").read(settings, b!.id, recordedOf(b!));
    expect(after.props?.prompt).toBe("You were changed.");
    expect(lists(emu)).toBe(2);
  });

  it("a diff (the engine's, after each refresh read) keeps the listing; a create, update or delete of the kind ends it", async () => {
    const { emu, settings, agents } = await withAgents(3);
    const [a, b] = agents;
    await runtimeFor("Agent").read(settings, a!.id, recordedOf(a!));
    await runtimeFor("Agent").diff(settings, a!.id, recordedOf(a!), recordedOf(a!));
    await runtimeFor("Agent").read(settings, b!.id, recordedOf(b!));
    expect([lists(emu), gets(emu)]).toEqual([1, 0]);
    // Another kind's delete leaves this collection's refresh on.
    await runtimeFor("Webhook").delete(settings, randomUUID(), {});
    await runtimeFor("Agent").read(settings, b!.id, recordedOf(b!));
    expect([lists(emu), gets(emu)]).toEqual([1, 0]);
    // An agent's delete sends nothing (the service has none: it is forgotten) but ends the refresh.
    await runtimeFor("Agent").delete(settings, b!.id, recordedOf(b!));
    await new Configuration(host, settings).client().agents.get(a!.id);
    expect([lists(emu), gets(emu)]).toEqual([1, 1]);
  });

  it("a number is found in the list by its E.164 number", async () => {
    const token = `pages-${randomUUID()}`;
    emu = await startEmulator({ tokens: [token], seed: true });
    const settings = { baseUrl: emu.url, token };
    const numbers = emu.seeds.get(token)!.numbers;
    emu.resetStats();
    for (const number of numbers) {
      const r = await runtimeFor("PurchasedNumber").read(settings, randomUUID(), { number });
      expect(r.props?.number).toBe(number);
    }
    expect(emu.stats.byRoute["GET /v1/numbers"] ?? 0).toBe(0);
    // One probe of the extension route (PurchasedNumber reads need it), one listing.
    expect(emu.stats.byRoute["GET /v1/numbers/list"]).toBe(2);
  });

  it("2024: an agent whose list item gives its prompt by a Prompt's id is read on its own (the item lacks the text)", async () => {
    const user = randomUUID();
    const voice = randomUUID();
    const byId = randomUUID();
    const inline = randomUUID();
    const item = (id: string, prompt: unknown) => ({ id, user_id: user, prompt, actions: [], voice });
    server = await startRecordingServer((req) => {
      if (req.path === "/v1/agents/list")
        return {
          json: {
            items: [item(byId, randomUUID()), item(inline, { content: "You are inline." })],
            page: 1,
            size: 100,
            total: 2,
            has_more: false,
            total_is_estimated: false,
          },
        };
      if (req.path === "/v1/agents")
        return {
          json: {
            ...item(byId, { id: randomUUID(), user_id: user, content: "You are by id." }),
            voice: { id: voice, user_id: user, type: "voice_azure" },
          },
        };
      return { status: 404, json: { detail: "Not Found" } };
    });
    const settings = { baseUrl: server.url, token: `t-${randomUUID()}` };
    const recorded = { prompt: "p", voice };
    expect((await runtimeFor("Agent").read(settings, inline, recorded)).props?.prompt).toBe("You are inline.");
    expect((await runtimeFor("Agent").read(settings, byId, recorded)).props?.prompt).toBe("You are by id.");
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/agents/list", "GET /v1/agents"]);
  });
});

describe("a refresh of the current API's own kinds reads in pages (2024)", () => {
  it(`prompts, vector databases, account connections and linked numbers: one listing each and no GET per object; \
a write drops the listing`, async () => {
    const token = `pages-${randomUUID()}`;
    emu = await startEmulator({ tokens: [token], seed: true, api: "2024" });
    const settings = {
      baseUrl: emu.url,
      token,
      config: { get: (k: string) => (k === "voiceagent:api" ? "2024" : undefined) },
    };
    // Made by another process (the `up` before this refresh): its own host, so its own client and listings.
    const maker = new Host();
    const made = (kind: Parameters<typeof runtimeIn>[0], inputs: Record<string, unknown>) =>
      runtimeIn(kind, maker).create(settings, inputs);
    const prompts = [
      await made("Prompt", { content: "You book visits." }),
      await made("Prompt", { content: "You answer questions." }),
    ];
    const databases = [
      await made("VectorDatabase", {
        type: "vector_database_pinecone",
        index: "a",
        apiKey: "pc-1",
        apiEnvironment: "e",
      }),
      await made("VectorDatabase", {
        type: "vector_database_pinecone",
        index: "b",
        apiKey: "pc-2",
        apiEnvironment: "e",
      }),
    ];
    const twilio = await made("AccountConnection", {
      type: "account_connection_twilio",
      twilioAccountSid: "AC1",
      twilioAuthToken: "tw-1",
    });
    const openai = await made("AccountConnection", { type: "account_connection_openai", openaiApiKey: "sk-1" });
    const numbers = ["+16465550101", "+16465550102"];
    const linked = [];
    for (const number of numbers)
      linked.push(await made("LinkedNumber", { number, telephonyAccountConnection: twilio.id }));
    emu.resetStats();

    // The refresh, in a provider process of its own: every read answered from one listing per collection.
    const reads = [
      ...prompts.map((m) => ({ kind: "Prompt" as const, m })),
      ...databases.map((m) => ({ kind: "VectorDatabase" as const, m })),
      ...[twilio, openai].map((m) => ({ kind: "AccountConnection" as const, m })),
      ...linked.map((m) => ({ kind: "LinkedNumber" as const, m })),
    ];
    const read = await Promise.all(reads.map(({ kind, m }) => runtimeFor(kind).read(settings, m.id, m.outs)));
    expect(read.map((r) => r.id)).toEqual(reads.map(({ m }) => m.id));
    expect(read.map((r) => r.props?.content ?? r.props?.index ?? r.props?.type ?? r.props?.number)).toEqual([
      "You book visits.",
      "You answer questions.",
      "a",
      "b",
      "account_connection_twilio",
      "account_connection_openai",
      ...numbers,
    ]);
    const singles = ["GET /v1/prompts", "GET /v1/vector_databases", "GET /v1/account_connections", "GET /v1/numbers"];
    expect(singles.map((r) => emu!.stats.byRoute[r] ?? 0)).toEqual([0, 0, 0, 0]);
    for (const c of ["prompts", "vector_databases", "account_connections", "numbers"])
      expect(emu.stats.byRoute[`GET /v1/${c}/list`], c).toBe(1);

    // A write through the same client drops the collection's listing: the next read shows what was written.
    const client = new Configuration(host, settings).client();
    await client.prompts.update(prompts[0]!.id, { content: "Edited." });
    expect((await client.prompts.get(prompts[0]!.id)).content).toBe("Edited.");
    await client.account_connections.addToSteeringPool(twilio.id, numbers[0]!);
    expect((await client.account_connections.get(twilio.id)).steering_pool).toEqual([numbers[0]]);
  });
});

describe("a listing's life", () => {
  const source = (ids: string[], counter: { lists: number }) => ({
    list: async () => {
      counter.lists++;
      return listingOf(
        ids.map((id) => ({ id })),
        [],
      );
    },
    keyOf: (i: { id: string }) => i.id,
  });

  it("is taken again once older than LISTING_MAX_AGE_MS", async () => {
    let clock = 0;
    const pages = createPageReads(() => clock);
    const counter = { lists: 0 };
    const reads = pages.collection("agents", source(["a"], counter));
    const single = async () => ({ id: "single" });
    pages.open("agents");
    await reads.read("a", single);
    clock = LISTING_MAX_AGE_MS;
    await reads.read("a", single);
    expect(counter.lists).toBe(1);
    clock = LISTING_MAX_AGE_MS + 1;
    await reads.read("a", single);
    expect(counter.lists).toBe(2);
  });

  it("is not taken outside a refresh, nor after it closes", async () => {
    const pages = createPageReads();
    const counter = { lists: 0 };
    const reads = pages.collection("agents", source(["a"], counter));
    expect(await reads.read("a", async () => ({ id: "single" }))).toEqual({ id: "single" });
    pages.open("agents");
    expect(await reads.read("a", async () => ({ id: "single" }))).toEqual({ id: "a" });
    pages.close("agents");
    expect(await reads.read("a", async () => ({ id: "single" }))).toEqual({ id: "single" });
    expect(counter.lists).toBe(1);
  });
});
