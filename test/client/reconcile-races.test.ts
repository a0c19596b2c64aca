// Exactly-once creates when creates overlap and the service is slow: identical creates in flight
// together, a 504 that arrives while the work is still committing, a list that lags its writes.
// Every ordering is forced with gates the fake waits on; no test relies on how long anything takes.
import { afterEach, describe, expect, it } from "vitest";
import { ApiOutcomeUnknownError, createClient, type RequestLogEvent } from "pulumi-voiceagent/client";
import type { Answer } from "../helpers/recording-server.js";
import { FAKE_VOICE_ID, startFakeService, type FakeService } from "../helpers/fake-service.js";
import { gate } from "../helpers/gate.js";

let fake: FakeService | undefined;
afterEach(async () => fake?.close());
const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 }, reconcile: { checkDelayMs: 1 } };
const agent = { prompt: "You answer the front desk.", voice: FAKE_VOICE_ID };
const call = { from_number: "+15550010001", to_number: "+15557650000", agent: FAKE_VOICE_ID };

/** A client that calls `whenWaiting` when a check of the list waits for creates in flight. */
function clientFor(f: FakeService, whenWaiting?: () => void) {
  const onRequest = (e: RequestLogEvent) => {
    if (e.event === "waiting") whenWaiting?.();
  };
  return createClient({ baseUrl: f.url, token: "t0ken", ...fast, onRequest });
}

const unavailable: Answer = { status: 503, json: { detail: "unavailable" } };

describe("identical creates in flight together never share an object", () => {
  // The first create is committed but its answer is held; the second, sent once the first is
  // committed, is refused with a 503 (before any work, or with `secondActs` after it). The refused one must not take the held one's object:
  // the held answer is released as soon as the refused one either reads the list (and may take
  // the object unclaimed) or waits for the held one before reading it.
  async function race(
    first: (c: ReturnType<typeof clientFor>) => Promise<{ id: string }>,
    second: (c: ReturnType<typeof clientFor>) => Promise<{ id: string }>,
    store: () => unknown[],
    secondActs = false,
  ) {
    fake = await startFakeService();
    const release = gate();
    const committed = gate();
    let refused = false;
    fake.fates.push(
      async (commit) => {
        const obj = commit();
        committed.open();
        await release.opened;
        return { json: obj };
      },
      (commit) => {
        if (secondActs) commit();
        refused = true;
        return unavailable;
      },
    );
    // The list before the refusal is the snapshot; one after it is a check.
    fake.afterList = () => {
      if (refused) release.open();
    };
    const c = clientFor(fake, release.open);
    const held = first(c);
    await committed.opened;
    const made = await Promise.all([held, second(c)]);
    return { ids: made.map((m) => m.id), stored: store().map((o) => (o as { id: string }).id) };
  }

  it("agents: two creates, two objects, two ids", async () => {
    const { ids, stored } = await race(
      (c) => c.agents.create(agent),
      (c) => c.agents.create(agent),
      () => fake!.agents,
    );
    expect(new Set(ids).size).toBe(2);
    expect([...stored].sort()).toEqual([...ids].sort());
  });

  it("agents, the 503 coming after the work: each create keeps one of the two objects, no ambiguity", async () => {
    const { ids, stored } = await race(
      (c) => c.agents.create(agent),
      (c) => c.agents.create(agent),
      () => fake!.agents,
      true,
    );
    expect(new Set(ids).size).toBe(2);
    expect([...stored].sort()).toEqual([...ids].sort());
  });

  it("an agent in flight that has every field of the refused one and more is not taken for it", async () => {
    const more = { ...agent, initial_message: "Hello, front desk." };
    const { ids, stored } = await race(
      (c) => c.agents.create(more),
      (c) => c.agents.create(agent),
      () => fake!.agents,
    );
    expect(new Set(ids).size).toBe(2);
    expect([...stored].sort()).toEqual([...ids].sort());
  });

  it("numbers/buy in one area code: two numbers bought, each held once", async () => {
    const buy = (c: ReturnType<typeof clientFor>) => c.numbers.buy({ area_code: "415" });
    const { ids, stored } = await race(buy, buy, () => fake!.numbers);
    expect(new Set(ids).size).toBe(2);
    expect([...stored].sort()).toEqual([...ids].sort());
  });

  it("a service that answers two creates with one id: the second is refused, the id is never given twice", async () => {
    fake = await startFakeService();
    let first: Record<string, unknown> | undefined;
    const same = (commit: () => Record<string, unknown>): Answer => {
      first ??= commit();
      return { json: first };
    };
    fake.fates.push(same, same);
    const c = clientFor(fake);
    const [a, b] = await Promise.allSettled([c.agents.create(agent), c.agents.create(agent)]);
    const kept = [a, b].filter((r) => r.status === "fulfilled");
    const refused = [a, b].flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
    expect(kept).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(ApiOutcomeUnknownError);
    expect(refused[0]).toMatchObject({ mayHaveActed: true });
  });
});

describe("a slow service: a create is never sent again on one look at the list", () => {
  it("a 504 that arrives while the work is still committing: adopted, not made twice", async () => {
    fake = await startFakeService();
    fake.fates.push((commit) => {
      // The work commits only once the first check has read the list and found nothing.
      fake!.afterList = () => {
        fake!.afterList = undefined;
        commit();
      };
      return { status: 504, json: { detail: "gateway timeout" } };
    });
    const made = await clientFor(fake).agents.create(agent);
    expect(fake.creates("/v1/agents/create")).toHaveLength(1);
    expect(fake.agents.map((a) => a.id)).toEqual([made.id]);
  });

  it("a list that shows a committed create only after two more reads: adopted, not made twice", async () => {
    fake = await startFakeService();
    fake.fates.push((commit) => {
      const obj = commit();
      fake!.hidden.add(String(obj.id));
      let lists = 0;
      fake!.afterList = () => {
        lists += 1;
        if (lists === 2) fake!.hidden.clear();
      };
      return { reset: true };
    });
    const made = await clientFor(fake).agents.create(agent);
    expect(fake.creates("/v1/agents/create")).toHaveLength(1);
    expect(fake.agents.map((a) => a.id)).toEqual([made.id]);
  });

  it("a call whose 504 arrives while it is still being placed: adopted, never dialled twice", async () => {
    fake = await startFakeService();
    fake.fates.push((commit) => {
      fake!.afterList = () => {
        fake!.afterList = undefined;
        commit();
      };
      return { status: 504, json: { detail: "gateway timeout" } };
    });
    const placed = await clientFor(fake).calls.create(call);
    expect(fake.creates("/v1/calls/create")).toHaveLength(1);
    expect(fake.calls.map((c) => c.id)).toEqual([placed.id]);
  });

  it("a call the list never shows: reported as possibly placed after more than one look, never dialled again", async () => {
    fake = await startFakeService();
    fake.fates.push("503-before");
    const err = await clientFor(fake)
      .calls.create(call)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiOutcomeUnknownError);
    // The service may still show it later: the error must not say it was not placed.
    expect(err).toMatchObject({ mayHaveActed: true });
    expect((err as Error).message).not.toMatch(/not made|not placed|run (the command|it) again/i);
    expect(fake.creates("/v1/calls/create")).toHaveLength(1);
    const checks = fake.server.requests.filter((r) => r.path === "/v1/calls/list").length - 1;
    expect(checks).toBeGreaterThan(1);
  });
});
