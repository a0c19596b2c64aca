// Only a complete listing shows a create made nothing (client/listing.ts). A create whose reply is
// lost after the service made the object, and whose new object's list item the client cannot read,
// must end as "outcome unknown", never be sent again: one object on the service, on every route.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiIncompleteListingError,
  ApiOutcomeUnknownError,
  createClient,
  type VoiceAgentClient,
} from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { createCapabilities } from "../../provider/client/capabilities.js";
import { listingOf } from "../../provider/client/listing.js";
import { pager } from "../../provider/client/pager.js";
import { Snapshots } from "../../provider/client/snapshots.js";

const TOKEN = `absence-${randomUUID()}`;
const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 }, reconcile: { checkDelayMs: 1 } };
let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

async function started(): Promise<{ emu: RunningEmulator; client: VoiceAgentClient; voice: string; from: string }> {
  emu = await startEmulator({ tokens: [TOKEN], seed: true });
  const seeds = emu.seeds.get(TOKEN)!;
  return {
    emu,
    client: createClient({ baseUrl: emu.url, token: TOKEN, ...fast }),
    voice: seeds.voices[0]!,
    from: seeds.numbers[0]!,
  };
}

/** One create route: the request that makes the object, and what picks its list item out. */
interface Route {
  route: string;
  list: string;
  where: Record<string, string>;
  create(t: Awaited<ReturnType<typeof started>>): Promise<unknown>;
}

const unique = randomUUID();
const routes: Route[] = [
  {
    route: "/v1/agents/create",
    list: "/v1/agents/list",
    where: { prompt: `You answer for ${unique}.` },
    create: (t) => t.client.agents.create({ prompt: `You answer for ${unique}.`, voice: t.voice }),
  },
  {
    route: "/v1/voices/create",
    list: "/v1/voices/list",
    where: { voice_name: `voice-${unique}` },
    create: (t) => t.client.voices.create({ voice_name: `voice-${unique}`, pitch: 0, rate: 1 }),
  },
  {
    route: "/v1/actions/create",
    list: "/v1/actions/list",
    where: { type: "action_transfer_call" },
    create: (t) => t.client.actions.create({ type: "action_transfer_call", config: { phone_number: "+15550009999" } }),
  },
  {
    route: "/v1/webhooks/create",
    list: "/v1/webhooks/list",
    where: { url: `https://example.com/${unique}` },
    create: (t) => t.client.webhooks.create({ url: `https://example.com/${unique}`, subscriptions: ["event_message"] }),
  },
  {
    // The case reproduced on 0.4.0: two numbers bought, one tracked.
    route: "/v1/numbers/buy",
    list: "/v1/numbers/list",
    where: { number: "+1415*" },
    create: (t) => t.client.numbers.buy({ area_code: "415" }),
  },
  {
    route: "/v1/calls/create",
    list: "/v1/calls/list",
    where: { to_number: "+15557650000" },
    create: async (t) => {
      const agent = await t.client.agents.create({ prompt: "Calls out.", voice: t.voice });
      return t.client.calls.create({ from_number: t.from, to_number: "+15557650000", agent: agent.id });
    },
  },
];

describe("a lost create reply whose new object's list item is unreadable", () => {
  it.each(routes)("$route: made once, and reported as outcome unknown", async (r) => {
    const t = await started();
    t.emu.faults.add({ phase: "after", route: r.route, method: "POST", reset: true, count: 1 });
    // A field of the wrong type (a number where a UUID string is expected) in the new object's item.
    t.emu.faults.add({ phase: "after", route: r.list, items: { where: r.where, set: { user_id: 42 } } });
    const err = await r.create(t).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(t.emu.stats.writes[`POST ${r.route}`]).toBe(1);
    expect(err).toBeInstanceOf(ApiOutcomeUnknownError);
    expect(err).toMatchObject({ method: "POST", path: r.route, mayHaveActed: true });
    const { message } = err as ApiOutcomeUnknownError;
    // It says the service may have acted, why the list could not tell, and what to do instead.
    expect(message).toMatch(/may have made/);
    expect(message).toMatch(/could not be read/);
    expect(message).toMatch(/user_id/);
    expect(message).toMatch(/not sent again/);
    expect(message).toMatch(/look for the .+ in the service's/);
  });
});

describe("what the list shows", () => {
  it("an unreadable item that existed before the create is no gap: a create that made nothing is sent again", async () => {
    const t = await started();
    // A voice of the account the client cannot read, listed before the create and after it.
    t.emu.faults.add({
      phase: "after",
      route: "/v1/voices/list",
      items: { where: { id: t.voice }, set: { pitch: "x" } },
    });
    // A 503 before the work: nothing was made, though the client cannot know that from the answer.
    t.emu.faults.add({ route: "/v1/voices/create", method: "POST", status: 503, count: 1 });
    const made = await t.client.voices.create({ voice_name: `again-${unique}`, pitch: 0, rate: 1 });
    expect(made.voice_name).toBe(`again-${unique}`);
    expect(t.emu.stats.byRoute["POST /v1/voices/create"]).toBe(2);
    expect(t.emu.stats.writes["POST /v1/voices/create"]).toBe(1);
  });

  it("listing() says whether it is complete; all() never returns part of a collection", async () => {
    const t = await started();
    expect(await t.client.voices.list.listing()).toMatchObject({ complete: true });
    t.emu.faults.add({
      phase: "after",
      route: "/v1/voices/list",
      items: { where: { id: t.voice }, set: { rate: [] } },
    });
    const listing = await t.client.voices.list.listing();
    expect(listing.complete).toBe(false);
    expect(listing.complete ? [] : listing.readable.map((v) => v.id)).not.toContain(t.voice);
    expect(listing).toMatchObject({ unreadable: [{ id: t.voice, why: expect.stringMatching(/^rate: /) }] });
    const err = await t.client.voices.list.all().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiIncompleteListingError);
    expect(err).toMatchObject({ code: "E_INCOMPLETE_LIST", path: "/v1/voices/list", mayHaveActed: false });
    expect((err as Error).message).toContain(t.voice);
  });

  it("pages cut short (an empty page that says there is more) make the listing incomplete", async () => {
    const item = { id: randomUUID() };
    const cut = pager({ method: "GET", path: "/v1/x/list" }, async (page) =>
      page === 1
        ? { items: [item], page, size: 100, total: 5, has_more: true }
        : { items: [], page, size: 100, total: 5, has_more: true },
    );
    const listing = await cut.listing();
    expect(listing).toMatchObject({
      complete: false,
      readable: [item],
      cut: expect.stringMatching(/page 2 came back empty/),
    });
    const short = pager({ method: "GET", path: "/v1/x/list" }, async (page) => ({
      items: [item],
      page,
      size: 100,
      total: 2,
      has_more: false,
    }));
    expect(await short.listing()).toMatchObject({ complete: false, cut: expect.stringMatching(/counts 2 objects/) });
  });

  it("a snapshot from a listing cut short (or holding an item without an id) is unknown, not complete; the next create lists again", async () => {
    const before = { id: randomUUID() };
    const named = { id: randomUUID(), why: "user_id: expected string" };
    const noRoute = async () => {
      throw new Error("no request: the listing is given");
    };
    const snapshots = new Snapshots(createCapabilities(noRoute));
    let lists = 0;
    const cutShort = async () => {
      lists += 1;
      return listingOf([before], [], "page 2 came back empty though the one before said there was more");
    };
    // An object the cut pages did not show existed before: a snapshot without it would let a later
    // check take it for the object a lost create made.
    const err = await snapshots.of("agents", cutShort).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: "E_INCOMPLETE_LIST",
      mayHaveActed: false,
      message: expect.stringContaining("page 2 came back empty"),
    });
    await snapshots.of("agents", cutShort).catch(() => undefined);
    expect(lists).toBe(2);
    const anonymous = async () => listingOf([before], [{ why: "an item without an id" }]);
    expect(await snapshots.of("voices", anonymous).catch((e: unknown) => e)).toMatchObject({
      code: "E_INCOMPLETE_LIST",
    });
    // Unreadable items that show their ids still name every object: a whole snapshot.
    const whole = await snapshots.of("actions", async () => listingOf([before], [named]));
    expect([...(whole ?? [])].sort()).toEqual([before.id, named.id].sort());
  });
});
