// Exactly-once creates without idempotency keys, against a fake whose creates fail on a script.
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiAmbiguousCreateError,
  ApiOutcomeUnknownError,
  createClient,
  type RequestLogEvent,
} from "pulumi-voiceagent/client";
import { FAKE_VOICE_ID, startFakeService, type FakeService } from "../helpers/fake-service.js";

let fake: FakeService | undefined;
afterEach(async () => fake?.close());
const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 }, reconcile: { checkDelayMs: 1 } };
const client = (f: FakeService, extra: object = {}) =>
  createClient({ baseUrl: f.url, token: "t0ken", ...fast, ...extra });
const agent = { prompt: "You answer the phone.", voice: FAKE_VOICE_ID };

describe("a create whose outcome is unknown is reconciled through the list", () => {
  it("zero candidates: nothing was made, so it is sent again, once", async () => {
    fake = await startFakeService();
    fake.fates.push("503-before");
    const made = await client(fake).agents.create(agent);
    expect(fake.creates("/v1/agents/create")).toHaveLength(2);
    expect(fake.agents.map((a) => a.id)).toEqual([made.id]);
  });

  it("one candidate: the reply was lost after the work, so the object is adopted, not made twice", async () => {
    for (const fate of ["lost", "503-after"] as const) {
      fake = await startFakeService();
      fake.fates.push(fate);
      const events: RequestLogEvent[] = [];
      const made = await client(fake, { onRequest: (e: RequestLogEvent) => events.push(e) }).agents.create(agent);
      expect(fake.creates("/v1/agents/create")).toHaveLength(1);
      expect(fake.agents.map((a) => a.id)).toEqual([made.id]);
      expect(events.map((e) => e.event)).toContain("reconciled");
      await fake.close();
    }
    fake = undefined;
  });

  it("two candidates: never a guess, an error naming both, and nothing sent again", async () => {
    fake = await startFakeService();
    fake.fates.push("lost-twin");
    const err = await client(fake)
      .agents.create(agent)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiAmbiguousCreateError);
    const ids = fake.agents.map((a) => String(a.id));
    expect(ids).toHaveLength(2);
    const { candidates, message } = err as ApiAmbiguousCreateError;
    expect([...candidates].sort()).toEqual([...ids].sort());
    // The user, who sees only the message, can find both objects from it.
    for (const id of ids) expect(message).toContain(id);
    // The create whose answer was lost: no response (status 0), and it did act.
    expect(err).toMatchObject({ method: "POST", path: "/v1/agents/create", status: 0, mayHaveActed: true });
    expect(fake.creates("/v1/agents/create")).toHaveLength(1);
  });

  it("an identical object that existed before is never taken for ours", async () => {
    fake = await startFakeService();
    const old = {
      id: "0b6f4a8e-5c1b-4a57-9a57-3f4f5a6b7c8d",
      user_id: "0b6f4a8e-5c1b-4a57-9a57-3f4f5a6b7c8e",
      prompt: agent.prompt,
      actions: [],
      voice: {
        id: FAKE_VOICE_ID,
        user_id: "0b6f4a8e-5c1b-4a57-9a57-3f4f5a6b7c8e",
        type: "voice_base",
        voice_name: "a",
        pitch: 0,
        rate: 0,
      },
      initial_message: null,
      webhook: null,
    };
    fake.agents.push(old);
    fake.fates.push("503-before");
    const made = await client(fake).agents.create(agent);
    expect(made.id).not.toBe(old.id);
    expect(fake.agents).toHaveLength(2);
  });

  it("a server without the list route: made once, then an honest unknown outcome", async () => {
    fake = await startFakeService({ lists: false });
    fake.fates.push("lost");
    const err = await client(fake)
      .agents.create(agent)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiOutcomeUnknownError);
    expect(err).toMatchObject({ method: "POST", path: "/v1/agents/create", status: 0, mayHaveActed: true });
    // It asked for the list (answered 404) before saying so, and sent nothing again.
    expect(fake.server.requests.filter((r) => r.path === "/v1/agents/list").length).toBeGreaterThan(0);
    expect(fake.creates("/v1/agents/create")).toHaveLength(1);
  });

  it("the list itself failing: an unknown outcome saying why, nothing sent again", async () => {
    fake = await startFakeService({ failLists: true });
    fake.fates.push("lost");
    const err = await client(fake, { retry: { baseDelayMs: 1, maxDelayMs: 2, limit: 2 } })
      .agents.create(agent)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiOutcomeUnknownError);
    expect(err).toMatchObject({ method: "POST", path: "/v1/agents/create", status: 0, mayHaveActed: true });
    // Why: the failing list, as the fake answered it (its route, its status, its own detail).
    const { message } = err as ApiOutcomeUnknownError;
    for (const fact of ["/v1/agents/list", "500", "list is down"]) expect(message).toContain(fact);
    expect(fake.creates("/v1/agents/create")).toHaveLength(1);
  });

  it("a create meeting only harmless failures keeps retrying past any count, until its time budget", async () => {
    fake = await startFakeService();
    // Nine answers that made nothing in a row: more than a count of attempts used to allow.
    fake.fates.push(...Array.from({ length: 9 }, () => "503-before" as const));
    const made = await client(fake).agents.create(agent);
    expect(fake.creates("/v1/agents/create")).toHaveLength(10);
    expect(fake.agents.map((a) => a.id)).toEqual([made.id]);
  });

  it("gives up when the time budget is spent, saying the list shows nothing was made", async () => {
    fake = await startFakeService();
    // The test's clock, far from the wall clock: each create's 503 costs 40 s of a 120 s budget.
    let now = 1_000_000;
    const busy = () => {
      now += 40_000;
      return { status: 503, json: { detail: "unavailable" } };
    };
    fake.fates.push(...Array.from({ length: 10 }, () => busy));
    const err = await client(fake, { now: () => now, retry: { baseDelayMs: 1, maxDelayMs: 5, budgetMs: 120_000 } })
      .agents.create(agent)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiOutcomeUnknownError);
    // The last create's 503, and the list's word that none of the three made anything.
    expect(err).toMatchObject({ method: "POST", path: "/v1/agents/create", status: 503, mayHaveActed: false });
    expect(fake.agents).toHaveLength(0);
    expect(fake.creates("/v1/agents/create")).toHaveLength(3);
    const { message } = err as ApiOutcomeUnknownError;
    expect(message).toMatch(/120s/);
    expect(message).toMatch(/\ban agent\b/);
    expect(message).not.toMatch(/\ba agent\b/);
  });

  it("one clock: a create's deadline is measured with the injected clock the transport uses", async () => {
    fake = await startFakeService();
    fake.fates.push("429");
    // A clock a day ahead of the wall clock: a deadline taken from the wall clock is long past by it.
    const ahead = () => Date.now() + 86_400_000;
    await client(fake, { now: ahead }).agents.create(agent);
    expect(fake.creates("/v1/agents/create")).toHaveLength(2);
    expect(fake.agents).toHaveLength(1);
  });

  it("a create that cannot have acted (429, refused) is simply sent again", async () => {
    fake = await startFakeService();
    fake.fates.push("429", "429");
    await client(fake).agents.create(agent);
    expect(fake.creates("/v1/agents/create")).toHaveLength(3);
    expect(fake.agents).toHaveLength(1);
  });

  it("a number bought whose answer was lost is found and kept, not bought twice", async () => {
    fake = await startFakeService();
    fake.fates.push("lost");
    const n = await client(fake).numbers.buy({ area_code: "415" });
    expect(n.number).toMatch(/^\+1415/);
    expect(fake.numbers).toHaveLength(1);
    expect(fake.creates("/v1/numbers/buy")).toHaveLength(1);
  });
});

describe("calls are placed at most once", () => {
  const call = { from_number: "+15550010001", to_number: "+15557650000", agent: FAKE_VOICE_ID };

  it("a lost answer: the call is found in the list and adopted", async () => {
    fake = await startFakeService();
    fake.fates.push("lost");
    const placed = await client(fake).calls.create(call);
    expect(fake.calls.map((c) => c.id)).toEqual([placed.id]);
    expect(fake.creates("/v1/calls/create")).toHaveLength(1);
  });
});
