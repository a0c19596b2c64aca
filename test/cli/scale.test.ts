// A 1,000-object account: pull and audit page through every list with the client's concurrency
// cap, finish, and send one request per page. Prints the figures (time, requests) for the notes.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { createClient } from "pulumi-voiceagent/client";
import { readAccount } from "../../provider/cli/account.js";
import { AuditReportSchema } from "../../provider/cli/audit.js";
import { PullPlanSchema } from "../../provider/cli/plan.js";
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
      ids.voices.push(s.createVoice(u, { type: "voice_base", voice_name: `voice ${i % 40}`, pitch: i % 5, rate: 1 }).id);
    for (let i = 0; i < SIZES.actions; i++) ids.actions.push(s.createAction(u, { type: "action_end_conversation", config: {} }).id);
    for (let i = 0; i < SIZES.webhooks; i++)
      ids.webhooks.push(
        s.createWebhook(u, { url: `https://hooks.example.com/${i % 10}`, method: "POST", subscriptions: ["event_message"] }).id,
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
    for (let i = 0; i < SIZES.numbers; i++) ids.numbers.push(s.addNumber(u, `+1777${String(i).padStart(7, "0")}`, ids.agents[i]!).id);
  });
});
afterAll(async () => {
  await emu?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const env = () => ({ VOICEAGENT_BASE_URL: emu.url, VOICEAGENT_TOKEN: TOKEN });
/** List requests the emulator received since `before`. */
const listRequests = (before: Record<string, number>) =>
  Object.entries(emu.stats.byRoute).reduce((n, [route, count]) => n + (route.endsWith("/list") ? count - (before[route] ?? 0) : 0), 0);
const pages = Object.values(SIZES).reduce((n, size) => n + Math.ceil(size / 100), 0);

describe("a 1,000-object account", () => {
  it("pull plans every object with one request per page", async () => {
    const before = { ...emu.stats.byRoute };
    const started = performance.now();
    const r = await cliInProcess(["pull", "--json"], env(), tmp);
    const ms = performance.now() - started;
    expect(r.code).toBe(0);
    const plan = PullPlanSchema.parse(JSON.parse(r.stdout));
    expect(plan.resources).toHaveLength(1000);
    expect(plan.skipped).toEqual([]);
    expect(new Set(plan.resources.map((x) => `${x.kind}:${x.name}`)).size).toBe(1000);
    expect(new Set(plan.resources.map((x) => x.variable)).size).toBe(1000);
    expect(listRequests(before)).toBe(pages);
    console.log(`[figures] pull --json of 1000 objects: ${ms.toFixed(0)} ms, ${listRequests(before)} requests; ${r.stderr.trim()}`);
  });

  it("pull writes the 1,000-resource project", async () => {
    const started = performance.now();
    const r = await cliInProcess(["pull", "--out", "big"], env(), tmp);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/wrote 1000 resources/);
    console.log(`[figures] pull to files of 1000 objects: ${(performance.now() - started).toFixed(0)} ms`);
  });

  it("audit finds the few unmanaged objects among 1,000 with one request per page", async () => {
    const unmanaged = [ids.agents[599]!, ids.voices[99]!];
    const refs = Object.entries(ids).flatMap(([c, list]) =>
      list
        .filter((id) => !unmanaged.includes(id))
        .map((id, i) => ({
          kind: { voices: "Voice", actions: "Action", webhooks: "Webhook", agents: "Agent", numbers: "PhoneNumber" }[c]!,
          id,
          name: `${c}-${i}`,
        })),
    );
    writeFileSync(path.join(tmp, "state.json"), exportOf(refs));
    const before = { ...emu.stats.byRoute };
    const started = performance.now();
    const r = await cliInProcess(["audit", "--state", "state.json", "--json"], env(), tmp);
    const ms = performance.now() - started;
    expect(r.code).toBe(3);
    const report = AuditReportSchema.parse(JSON.parse(r.stdout));
    expect(report.findings.map((f) => f.id).sort()).toEqual([...unmanaged].sort());
    expect(listRequests(before)).toBe(pages);
    console.log(`[figures] audit of 1000 objects against a 998-resource state: ${ms.toFixed(0)} ms, ${listRequests(before)} requests`);
  });

  it("with 50 ms of latency per request, pages fetched together beat page after page", async () => {
    emu.faults.add({ route: "/v1/*", latencyMs: 50 });
    try {
      const started = performance.now();
      const { account, stats } = await readAccount({ baseUrl: emu.url, token: TOKEN });
      const ours = performance.now() - started;
      const client = createClient({ baseUrl: emu.url, token: TOKEN });
      const seqStarted = performance.now();
      const seq = await Promise.all([
        client.voices.list.all(),
        client.actions.list.all(),
        client.webhooks.list.all(),
        client.agents.list.all(),
        client.numbers.list.all(),
      ]);
      const sequential = performance.now() - seqStarted;
      expect(Object.values(account).flat()).toHaveLength(1000);
      expect(seq.flat()).toHaveLength(1000);
      expect(stats.requests).toBe(pages);
      expect(ours).toBeLessThan(sequential);
      console.log(
        `[figures] read 1000 objects at 50 ms/request: ${ours.toFixed(0)} ms (${stats.requests} requests) vs ${sequential.toFixed(0)} ms page after page (client list.all)`,
      );
    } finally {
      emu.faults.clear();
    }
  });
});
