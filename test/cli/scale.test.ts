// A 1,000-object account: pull and audit page through every list with the client's concurrency
// cap, finish, and send one request per page. How long that takes is measured by `npm run bench --
// --sections account`, not here.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import type { Page } from "pulumi-voiceagent/client";
import { listAll } from "../../provider/cli/account.js";
import { AuditReportSchema } from "../../provider/cli/audit.js";
import { PullPlanSchema } from "../../provider/cli/plan.js";
import { COLLECTION_NAMES, collections } from "../../provider/schemas/index.js";
import { exportOf } from "./fake-state.js";
import { cliInProcess } from "./run-cli.js";

const TOKEN = `scale-${randomUUID()}`;
const SIZES = { voices: 100, actions: 50, webhooks: 50, agents: 600, numbers: 200 };
let emu: RunningEmulator;
let tmp: string;
const ids: Record<keyof typeof SIZES, string[]> = { voices: [], actions: [], webhooks: [], agents: [], numbers: [] };

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN] });
  tmp = mkdtempSync(path.join(os.tmpdir(), "voiceagent-scale-"));
  const { userId: u } = emu.store.userFor(TOKEN);
  const s = emu.service;
  // Made through the service in one transaction: seconds saved, the same objects as over HTTP.
  emu.store.tx(() => {
    for (let i = 0; i < SIZES.voices; i++)
      ids.voices.push(
        s.createVoice(u, { type: "voice_base", voice_name: `voice ${i % 40}`, pitch: i % 5, rate: 1 }).id,
      );
    for (let i = 0; i < SIZES.actions; i++)
      ids.actions.push(s.createAction(u, { type: "action_end_conversation", config: {} }).id);
    for (let i = 0; i < SIZES.webhooks; i++)
      ids.webhooks.push(
        s.createWebhook(u, {
          url: `https://hooks.example.com/${i % 10}`,
          method: "POST",
          subscriptions: ["event_message"],
        }).id,
      );
    for (let i = 0; i < SIZES.agents; i++) {
      const a = s.createAgent(u, {
        prompt: `You are agent ${i % 150} of the fleet.`,
        voice: ids.voices[i % SIZES.voices]!,
        actions: [ids.actions[i % SIZES.actions]!],
        webhook: ids.webhooks[i % SIZES.webhooks]!,
      });
      ids.agents.push(a.id);
    }
    for (let i = 0; i < SIZES.numbers; i++)
      ids.numbers.push(s.addNumber(u, `+1777${String(i).padStart(7, "0")}`, ids.agents[i]!).id);
  });
});
afterAll(async () => {
  await emu?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const env = () => ({ VOICEAGENT_BASE_URL: emu.url, VOICEAGENT_TOKEN: TOKEN });
/** List requests the emulator received since `before`. */
const listRequests = (before: Record<string, number>) =>
  Object.entries(emu.stats.byRoute).reduce(
    (n, [route, count]) => n + (route.endsWith("/list") ? count - (before[route] ?? 0) : 0),
    0,
  );
/**
 * One request per page of each collection, and one for each collection only the current API has
 * (prompts, vector databases, account connections), which this interface-dialect service answers
 * 404: read as empty.
 */
const pages =
  Object.values(SIZES).reduce((n, size) => n + Math.ceil(size / 100), 0) +
  COLLECTION_NAMES.filter((c) => collections[c].generation === "2024").length;

describe("a 1,000-object account", () => {
  it("pull plans every object with one request per page", async () => {
    const before = { ...emu.stats.byRoute };
    const r = await cliInProcess(["pull", "--json"], env(), tmp);
    expect(r.code).toBe(0);
    const plan = PullPlanSchema.parse(JSON.parse(r.stdout));
    expect(plan.resources).toHaveLength(1000);
    expect(plan.skipped).toEqual([]);
    expect(new Set(plan.resources.map((x) => `${x.kind}:${x.name}`)).size).toBe(1000);
    expect(new Set(plan.resources.map((x) => x.variable)).size).toBe(1000);
    expect(listRequests(before)).toBe(pages);
  });

  it("pull writes the 1,000-resource project", async () => {
    const r = await cliInProcess(["pull", "--out", "big"], env(), tmp);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\b1000 resources/);
  });

  it("audit finds the few unmanaged objects among 1,000 with one request per page", async () => {
    const unmanaged = [ids.agents[599]!, ids.voices[99]!];
    const refs = Object.entries(ids).flatMap(([c, list]) =>
      list
        .filter((id) => !unmanaged.includes(id))
        .map((id, i) => ({
          kind: { voices: "Voice", actions: "Action", webhooks: "Webhook", agents: "Agent", numbers: "PhoneNumber" }[
            c
          ]!,
          id,
          name: `${c}-${i}`,
        })),
    );
    writeFileSync(path.join(tmp, "state.json"), exportOf(refs));
    const before = { ...emu.stats.byRoute };
    const r = await cliInProcess(["audit", "--state", "state.json", "--json"], env(), tmp);
    expect(r.code).toBe(3);
    const report = AuditReportSchema.parse(JSON.parse(r.stdout));
    expect(report.findings.map((f) => f.id).sort()).toEqual([...unmanaged].sort());
    expect(listRequests(before)).toBe(pages);
  });
});

describe("reading one list", () => {
  it("asks for every page after the first together, before any of them is answered", async () => {
    // A list whose pages the test answers by hand: 600 items, 100 a page.
    const asked: { page: number; answer: () => void }[] = [];
    const item = (i: number) => ({ id: `item-${i}` });
    const list = (page: number, size: number) =>
      new Promise<Page<{ id: string }>>((resolve) => {
        const items = Array.from({ length: size }, (_, i) => item((page - 1) * size + i)).filter(
          (_, i) => (page - 1) * size + i < 600,
        );
        asked.push({ page, answer: () => resolve({ items, page, size, total: 600, has_more: page * size < 600 }) });
      });
    const all = listAll(list);
    await new Promise((r) => setImmediate(r));
    expect(asked.map((a) => a.page)).toEqual([1]);
    asked[0]!.answer();
    await new Promise((r) => setImmediate(r));
    // Page after page would have asked for page 2 only.
    expect(asked.map((a) => a.page)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const a of asked.slice(1).reverse()) a.answer();
    const listing = await all;
    expect(listing.complete).toBe(true);
    const items = listing.complete ? listing.items : [];
    expect(items).toHaveLength(600);
    expect(new Set(items.map((i) => i.id)).size).toBe(600);
  });
});
