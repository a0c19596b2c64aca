// Two stacks of one program on ONE account deploying at once on one machine (issue 51): staging
// and production each declare the same fleet of identical agents, so their creates have one body.
// One stack's creates lose their replies (the connection reset once the request is in: the outcome
// is unknown) while the other stack's identical objects are made after the first stack read its
// list, so the first stack's checks see new, identical objects it did not make. The order is
// forced by the emulator, not by timing: the maker's creates wait until the loser's first create
// has arrived (the loser's list was read before), and the loser's creates wait until every one of
// the maker's is committed. Both orders are run: staging loses, then production loses (the fleet
// grows by N in both). Each stack must converge in its one `up`, no agent id may be in both
// states, and the service must hold exactly as many agents as the two stacks declare.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { createTestStack, type TestStack } from "../helpers/pulumi-stack.js";

const N = 6;
const TOKEN = `e2e-two-stacks-${randomUUID()}`;
const PROMPT = "You are one of many identical desks.";
const CREATE = "/v1/agents/create";
/** Latency markers: each rule's latency tells the test's delay hook which wait it is. */
const MAKER_BEFORE = 11;
const MAKER_COMMITTED = 13;
const LOSER_HELD = 7;
let emu: RunningEmulator;
let client: VoiceAgentClient;
let shared = "";
type Name = "staging" | "production";
const stacks = new Map<Name, { t: TestStack; host: string }>();
const stack = (name: Name) => stacks.get(name)!;

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], seed: true });
  client = createClient({ baseUrl: emu.url, token: TOKEN });
  const voice = emu.seeds.get(TOKEN)!.voices[0]!;
  // The stacks' machine folder, this test's own (coordination/machine.ts): both share it, as two
  // deployments of one user on one machine do, and no other test's deployment meets them there.
  shared = mkdtempSync(path.join(tmpdir(), "va-two-stacks-"));
  // Staging reaches the emulator as 127.0.0.1, production as localhost: a fault can pick one stack.
  for (const [name, host] of [
    ["staging", "127.0.0.1"],
    ["production", "localhost"],
  ] as const) {
    const t = await createTestStack({
      name: `twins-${name}`,
      project: "twins",
      program: "dist/test/e2e/fixtures/twins/index.js",
      config: {
        "voiceagent:baseUrl": { value: emu.url.replace("127.0.0.1", host) },
        "voiceagent:token": { value: TOKEN, secret: true },
        "twins:voice": { value: voice },
      },
      env: { VOICEAGENT_SHARED_DIR: shared },
    });
    stacks.set(name, { t, host });
  }
}, 120_000);
afterAll(async () => {
  for (const s of stacks.values()) await s.t.dispose();
  await emu?.close();
  rmSync(shared, { recursive: true, force: true });
});

/**
 * Forces the order of one round: `maker`'s N creates are held (before their work) until `loser`'s
 * first create has arrived, then committed and answered; `loser`'s first N creates are held
 * (before their work) until all of the maker's are committed, then their connections are reset.
 */
function force(loser: string, maker: string): void {
  let loserArrived = () => {};
  const arrived = new Promise<void>((resolve) => (loserArrived = resolve));
  let makerCommitted = () => {};
  const committed = new Promise<void>((resolve) => (makerCommitted = resolve));
  let made = 0;
  emu.faults.clear();
  emu.faults.add({ route: CREATE, method: "POST", host: maker, latencyMs: MAKER_BEFORE, count: N });
  emu.faults.add({ route: CREATE, method: "POST", host: maker, phase: "after", latencyMs: MAKER_COMMITTED, count: N });
  emu.faults.add({ route: CREATE, method: "POST", host: loser, latencyMs: LOSER_HELD, reset: true, count: N });
  emu.faults.delay = async (ms) => {
    if (ms === LOSER_HELD) {
      loserArrived();
      return committed;
    }
    if (ms === MAKER_BEFORE) return arrived;
    if (ms === MAKER_COMMITTED && ++made === N) makerCommitted();
  };
}

type StateResource = { type: string; id?: string };
const agentIds = async (t: TestStack) =>
  ((await t.stack.exportStack()).deployment.resources as StateResource[])
    .filter((r) => r.type.endsWith("voiceagent:Agent"))
    .map((r) => r.id!);

describe(`two stacks of ${N} identical agents each on one account, deployed at once on one machine, one losing its replies`, () => {
  for (const [round, loser, maker] of [
    [1, "staging", "production"],
    [2, "production", "staging"],
  ] as const) {
    it(`round ${round}: ${loser} loses its replies while ${maker}'s identical agents appear; both converge in one up, \
no id in both states, as many agents on the service as declared`, async () => {
      const declared = round * N;
      for (const s of stacks.values()) await s.t.stack.setConfig("twins:agents", { value: String(declared) });
      force(stack(loser).host, stack(maker).host);
      const before = emu.stats.faults.before[`POST ${CREATE}`] ?? 0;
      const ups = await Promise.allSettled([...stacks.values()].map((s) => s.t.stack.up()));
      const failed = ups.flatMap((u) => (u.status === "rejected" ? [String(u.reason)] : []));
      expect(failed).toEqual([]);
      // The hard case happened: the loser's N first creates were reset after being sent.
      expect((emu.stats.faults.before[`POST ${CREATE}`] ?? 0) - before).toBeGreaterThanOrEqual(2 * N);
      const [staging, production] = [await agentIds(stack("staging").t), await agentIds(stack("production").t)];
      expect(new Set(staging).size).toBe(declared);
      expect(new Set(production).size).toBe(declared);
      expect(staging.filter((id) => production.includes(id))).toEqual([]);
      const live = (await client.agents.list.all()).filter((a) => a.prompt === PROMPT).map((a) => a.id);
      expect(live).toHaveLength(2 * declared);
      expect([...staging, ...production].sort()).toEqual(live.sort());
    }, 300_000);
  }
});
