// Reading a 1,000-object account: `voiceagent pull --json` (the built bin, as users run it) against
// the client's page-after-page `list.all`, on a clean emulator and with latency on every request.
// The tests prove the pages are asked for together and counted; this measures what that buys.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";

/** One way of reading the account, at one latency. */
export interface AccountRead {
  how: string;
  latencyMs: number;
  /** Wall time of the read itself (for the bin: what it reports on stderr, start-up excluded). */
  readMs: number;
  requests: number;
}

const SIZES = { voices: 100, actions: 50, webhooks: 50, agents: 600, numbers: 200 };

/** Fills the account of `token` with 1,000 objects in one transaction (the same objects as over HTTP). */
function fill(emu: RunningEmulator, token: string): void {
  const { userId: u } = emu.store.userFor(token);
  const s = emu.service;
  emu.store.tx(() => {
    const voices = Array.from(
      { length: SIZES.voices },
      (_, i) => s.createVoice(u, { type: "voice_base", voice_name: `voice ${i % 40}`, pitch: i % 5, rate: 1 }).id,
    );
    const actions = Array.from(
      { length: SIZES.actions },
      () => s.createAction(u, { type: "action_end_conversation", config: {} }).id,
    );
    const webhooks = Array.from(
      { length: SIZES.webhooks },
      (_, i) =>
        s.createWebhook(u, {
          url: `https://hooks.example.com/${i % 10}`,
          method: "POST",
          subscriptions: ["event_message"],
        }).id,
    );
    const agents = Array.from(
      { length: SIZES.agents },
      (_, i) =>
        s.createAgent(u, {
          prompt: `You are agent ${i % 150} of the fleet.`,
          voice: voices[i % SIZES.voices]!,
          actions: [actions[i % SIZES.actions]!],
          webhook: webhooks[i % SIZES.webhooks]!,
        }).id,
    );
    for (let i = 0; i < SIZES.numbers; i++) s.addNumber(u, `+1777${String(i).padStart(7, "0")}`, agents[i]!);
  });
}

/** `read 1000 objects in 0.4 s (11 requests)` from the bin's stderr. */
function parseRead(stderr: string): { readMs: number; requests: number } {
  const m = /read (\d+) objects in ([\d.]+) s \((\d+) requests\)/.exec(stderr);
  if (!m) throw new Error(`pull did not report its read: ${stderr}`);
  if (Number(m[1]) !== 1000) throw new Error(`pull read ${m[1]} objects, expected 1000`);
  return { readMs: Number(m[2]) * 1000, requests: Number(m[3]) };
}

/** Times pull --json and list.all on a 1,000-object account, at each latency. */
export async function benchAccount(root: string, latencies: number[]): Promise<AccountRead[]> {
  const token = "bench-account";
  const emu = await startEmulator({ tokens: [token] });
  const cwd = mkdtempSync(path.join(os.tmpdir(), "voiceagent-bench-account-"));
  const out: AccountRead[] = [];
  try {
    fill(emu, token);
    const client = createClient({ baseUrl: emu.url, token });
    for (const latencyMs of latencies) {
      if (latencyMs > 0) emu.faults.add({ route: "/v1/*", latencyMs });
      try {
        const { stderr } = await promisify(execFile)(
          process.execPath,
          [path.join(root, "provider/dist/cli/main.js"), "pull", "--json"],
          {
            cwd,
            env: { ...process.env, VOICEAGENT_BASE_URL: emu.url, VOICEAGENT_TOKEN: token },
            maxBuffer: 64 * 2 ** 20,
          },
        );
        out.push({ how: "pull --json (pages together)", latencyMs, ...parseRead(stderr) });
        const before = emu.stats.total;
        const started = performance.now();
        const lists = await Promise.all(
          [client.voices, client.actions, client.webhooks, client.agents, client.numbers].map((c) => c.list.all()),
        );
        if (lists.flat().length !== 1000)
          throw new Error(`list.all read ${lists.flat().length} objects, expected 1000`);
        out.push({
          how: "client list.all (page after page)",
          latencyMs,
          readMs: performance.now() - started,
          requests: emu.stats.total - before,
        });
      } finally {
        emu.faults.clear();
      }
    }
  } finally {
    await emu.close();
    rmSync(cwd, { recursive: true, force: true });
  }
  return out;
}
