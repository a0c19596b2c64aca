// Lists are paged by offset: a row made while the pages are read shifts every later row by one, so
// the last row of a page comes again at the top of the next. The client keeps each id once (and
// reads again when it holds fewer rows than the service counts), so a shifted row is neither a
// second object nor a false "ambiguous" when a create is reconciled.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "pulumi-voiceagent/client";
import { FAKE_VOICE_ID, startFakeService, type FakeService } from "../helpers/fake-service.js";

let fake: FakeService | undefined;
afterEach(async () => fake?.close());
const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 }, reconcile: { checkDelayMs: 1 } };

/** An agent someone else made, with its own prompt. */
function other(i: number): Record<string, unknown> {
  return {
    id: randomUUID(),
    user_id: randomUUID(),
    prompt: `someone else's agent ${i}`,
    actions: [],
    voice: { id: FAKE_VOICE_ID, user_id: randomUUID(), type: "voice_base", voice_name: "a", pitch: 0, rate: 0 },
    initial_message: null,
    webhook: null,
  };
}

/** Makes a new row at the head of the list once, right after the next first page is served. */
function insertAtHeadAfterFirstPage(f: FakeService, when: () => boolean = () => true): void {
  f.afterList = (_path, query) => {
    if ((query.page ?? "1") !== "1" || !when()) return;
    f.afterList = undefined;
    f.agents.unshift(other(-1));
  };
}

describe("paging by offset while the list shifts", () => {
  it("every object once: the shifted row is not repeated and the new head is not skipped", async () => {
    fake = await startFakeService();
    for (let i = 0; i < 150; i++) fake.agents.push(other(i));
    insertAtHeadAfterFirstPage(fake);
    const all = await createClient({ baseUrl: fake.url, token: "t0ken", ...fast }).agents.list.all();
    const ids = all.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(fake.agents.map((a) => String(a.id)).sort());
  });

  it("a lost create whose object sits on a page boundary is adopted, not reported ambiguous", async () => {
    fake = await startFakeService();
    // 99 rows before ours: the object the create makes is the last row of the first page, and
    // someone else's, made right after, is on the second.
    for (let i = 0; i < 99; i++) fake.agents.push(other(i));
    const rows = fake.agents;
    fake.fates.push((commit) => {
      commit();
      rows.push(other(100));
      return { reset: true };
    });
    insertAtHeadAfterFirstPage(fake, () => rows.length === 101);
    const agent = await createClient({ baseUrl: fake.url, token: "t0ken", ...fast }).agents.create({
      prompt: "You take orders.",
      voice: FAKE_VOICE_ID,
    });
    expect(fake.creates("/v1/agents/create")).toHaveLength(1);
    expect(fake.agents.filter((a) => a.prompt === "You take orders.").map((a) => a.id)).toEqual([agent.id]);
  });
});
