// Two stacks of one program on ONE account deploying at once on one machine (issue 51): staging
// and production each declare the same fleet of identical agents, so their creates have one body.
// One stack's creates lose their replies (the connection reset once the request is in: the outcome
// is unknown) while the other stack's identical objects are made after the first stack read its
// list, so the first stack's checks see new, identical objects it did not make. The order is
// forced by the emulator, not by timing: the maker's creates wait until the loser's first create
// has arrived (the loser's list was read before), and the loser's creates wait until every one of
// the maker's is committed. Both orders are run: staging loses, then production loses (the fleet
// grows by N in both). Each stack must converge in its one `up`, no agent id may be in both
// states, and the service must hold exactly as many agents as the two stacks declare, each made
// by one committed create.
//
// Twice: on the interface's API (2023), where the agents have no name and every desk of both
// stacks sends one body, with the loser's creates reset before the service acts; and on the
// current API (2024), where each agent is named by autonaming (its logical name, the same desk in
// both stacks), staging on the dynamic entry (its `__logicalName`) and production on the native
// plugin (the engine's autonaming), with the loser's creates MADE and their replies lost: each
// lost create is then matched by its name among its stack's desks and the other stack's
// identical ones (which the machine's claims keep from it), so every desk holds the object named
// after it.
//
// As a team runs them: both stacks of the project on one shared backend, a real PostgreSQL through
// Pulumi's own `postgres://` backend (test/helpers/postgres.ts, a database per API generation),
// whose table, read whole at the end, holds both stacks' agents and never the token.
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { type Postgres, usePostgres } from "../helpers/postgres.js";
import type { Deployment } from "@pulumi/pulumi/automation/index.js";
import { createTestStack, ROOT, type TestStack } from "../helpers/pulumi-stack.js";

const N = 6;
const PROMPT = "You are one of many identical desks.";
const CREATE = "/v1/agents/create";
/** Latency markers: each rule's latency tells the test's delay hook which wait it is. */
const MAKER_BEFORE = 11;
const MAKER_COMMITTED = 13;
const LOSER_HELD = 7;
type Name = "staging" | "production";
type Entry = "dynamic" | "native";
/** One PostgreSQL server for the file's two pairs of stacks. */
const postgres = usePostgres();

/** One API generation's pair of stacks: how their agents are made, and where the loser's replies are lost. */
interface Twins {
  api: "2023" | "2024";
  /** The entry each stack's program uses. */
  entries: Record<Name, Entry>;
  /** "before": the loser's creates are reset before the service acts; "after": once it made the agent. */
  lost: "before" | "after";
}

function twoStacks({ api, entries, lost }: Twins): void {
  const token = `e2e-two-stacks-${api}-${randomUUID()}`;
  let emu: RunningEmulator;
  let client: VoiceAgentClient;
  let shared = "";
  let pg: Postgres;
  const database = `twins_${api}`;
  const stacks = new Map<Name, { t: TestStack; host: string }>();
  const stack = (name: Name) => stacks.get(name)!;
  /**
   * Each stack's state as its last `up` read it back: a test stack reads an up's outputs from one
   * `stack export` (test/helpers/pulumi-stack.ts withFewerCommands), and the test reads the agents
   * from that same export instead of exporting again.
   */
  const lastExport = new Map<TestStack, Deployment>();

  beforeAll(async () => {
    pg = await postgres();
    const backend = await pg.backend(database);
    emu = await startEmulator({ tokens: [token], seed: true, api });
    client = createClient({ baseUrl: emu.url, token });
    const voice = emu.seeds.get(token)!.voices[0]!;
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
        stack: name,
        program: "dist/test/e2e/fixtures/twins/index.js",
        config: {
          "voiceagent:baseUrl": { value: emu.url.replace("127.0.0.1", host) },
          "voiceagent:token": { value: token, secret: true },
          "voiceagent:api": { value: api },
          "twins:voice": { value: voice },
          "twins:entry": { value: entries[name] },
          // Round 1's fleet (round 2 grows it).
          "twins:agents": { value: String(N) },
        },
        env: { VOICEAGENT_SHARED_DIR: shared, PULUMI_BACKEND_URL: backend },
      });
      // The native classes' provider is the plugin built in this repository, as a user's project names it.
      if (entries[name] === "native")
        appendFileSync(
          path.join(t.workDir, "Pulumi.yaml"),
          `plugins:\n  providers:\n    - name: voiceagent\n      path: ${path.join(ROOT, "provider/dist/plugin")}\n`,
        );
      const exportStack = t.stack.exportStack.bind(t.stack);
      t.stack.exportStack = async () => {
        const state = await exportStack();
        lastExport.set(t, state);
        return state;
      };
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
   * (before their work) until all of the maker's are committed, then their connections are reset
   * (before the work, or once it is committed: `lost`).
   */
  function force(loser: string, maker: string): void {
    let loserArrived = () => {};
    const arrived = new Promise<void>((resolve) => (loserArrived = resolve));
    let makerCommitted = () => {};
    const committed = new Promise<void>((resolve) => (makerCommitted = resolve));
    let made = 0;
    emu.faults.clear();
    emu.faults.add({ route: CREATE, method: "POST", host: maker, latencyMs: MAKER_BEFORE, count: N });
    emu.faults.add({
      route: CREATE,
      method: "POST",
      host: maker,
      phase: "after",
      latencyMs: MAKER_COMMITTED,
      count: N,
    });
    if (lost === "before")
      emu.faults.add({ route: CREATE, method: "POST", host: loser, latencyMs: LOSER_HELD, reset: true, count: N });
    else {
      emu.faults.add({ route: CREATE, method: "POST", host: loser, latencyMs: LOSER_HELD, count: N });
      emu.faults.add({ route: CREATE, method: "POST", host: loser, phase: "after", reset: true, count: N });
    }
    emu.faults.delay = async (ms) => {
      if (ms === LOSER_HELD) {
        loserArrived();
        return committed;
      }
      if (ms === MAKER_BEFORE) return arrived;
      if (ms === MAKER_COMMITTED && ++made === N) makerCommitted();
    };
  }

  type StateResource = { type: string; urn: string; id?: string };
  /** The state's agents as the stack's last up left them: each one's id by its logical name. */
  const agentIds = (t: TestStack) => {
    const state = lastExport.get(t);
    if (!state) throw new Error(`no up of stack ${t.stack.name} read its state back`);
    return new Map(
      (state.deployment.resources as StateResource[])
        .filter((r) => r.type.endsWith("voiceagent:Agent") || r.type === "voiceagent:index:Agent")
        .map((r) => [r.urn.split("::").pop()!, r.id!]),
    );
  };

  for (const [round, loser, maker] of [
    [1, "staging", "production"],
    [2, "production", "staging"],
  ] as const) {
    it(`round ${round}: ${loser} (${entries[loser]} entry) loses its replies while ${maker}'s (${entries[maker]}) \
identical agents appear; both converge in one up, no id in both states, as many agents on the service as declared`, async () => {
      const declared = round * N;
      if (round > 1)
        for (const s of stacks.values()) await s.t.stack.setConfig("twins:agents", { value: String(declared) });
      force(stack(loser).host, stack(maker).host);
      const before = emu.stats.faults[lost][`POST ${CREATE}`] ?? 0;
      const writes = emu.stats.writes[`POST ${CREATE}`] ?? 0;
      const ups = await Promise.allSettled([...stacks.values()].map((s) => s.t.stack.up()));
      const failed = ups.flatMap((u) => (u.status === "rejected" ? [String(u.reason)] : []));
      expect(failed).toEqual([]);
      // The hard case happened: the loser's N first creates were reset (before or after the work).
      expect((emu.stats.faults[lost][`POST ${CREATE}`] ?? 0) - before).toBeGreaterThanOrEqual(
        lost === "before" ? 2 * N : N,
      );
      // Each new agent was made by one committed create: none was made again after a lost reply.
      expect((emu.stats.writes[`POST ${CREATE}`] ?? 0) - writes).toBe(2 * N);
      const [staging, production] = [agentIds(stack("staging").t), agentIds(stack("production").t)];
      expect(new Set(staging.values()).size).toBe(declared);
      expect(new Set(production.values()).size).toBe(declared);
      expect([...staging.values()].filter((id) => [...production.values()].includes(id))).toEqual([]);
      const live = (await client.agents.list.all()).filter((a) => a.prompt === PROMPT);
      expect(live).toHaveLength(2 * declared);
      expect([...staging.values(), ...production.values()].sort()).toEqual(live.map((a) => a.id).sort());
      if (api === "2024") {
        // Autonamed: every desk holds the object named after it, the lost creates' included.
        const nameOf = new Map(live.map((a) => [a.id, a.name]));
        for (const ids of [staging, production])
          expect(Object.fromEntries([...ids].map(([desk, id]) => [desk, nameOf.get(id)]))).toEqual(
            Object.fromEntries([...ids.keys()].map((desk) => [desk, desk])),
          );
      }
    }, 300_000);
  }

  it("the state table holds both stacks and their agents, and not the token", async () => {
    const dump = await pg.dump(database);
    for (const name of ["staging", "production"] as const) {
      expect(dump, `${name}'s stack in the table`).toMatch(new RegExp(`/twins/${name}\\.json(\\.gz)?\\t`));
      // The state is there (every agent's id), so its search for the token is not of an empty table.
      for (const id of agentIds(stack(name).t).values()) expect(dump).toContain(id);
    }
    expect(dump.includes(token), "the token in the table").toBe(false);
  });
}

describe(`two stacks of ${N} identical agents each on one account, deployed at once on one machine, one losing its replies`, () => {
  twoStacks({ api: "2023", entries: { staging: "dynamic", production: "dynamic" }, lost: "before" });
});

describe(`the same on the current API with autonamed agents, staging on the dynamic entry and production on the native \
plugin, the loser's agents made and their replies lost`, () => {
  twoStacks({ api: "2024", entries: { staging: "dynamic", production: "native" }, lost: "after" });
});
