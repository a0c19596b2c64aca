// examples/tenants as a platform team runs it (issue 45): the folder copied out of the repository,
// pulumi-voiceagent from the packed tarball, the state on a real PostgreSQL through Pulumi's own
// `postgres://` backend, one account under a rate limit. Twelve tenant stacks, four at a time,
// through the Automation API: each converges in one pass with exactly its objects; a hand edit in
// one tenant is drift for that tenant only; destroying one leaves the others' lines answered; the
// state table holds no secret in plain text. That the deployments pace as one machine is proved
// where it can fail: test/coordination/shared-pace.test.ts (a process of another deployment joins
// the learned pace: far fewer 429s than pacing alone, failing with VOICEAGENT_PACE_ALONE=1) and
// test/client/pace-many.test.ts (twenty processes on one pace under a limit of 2/s). A count of
// this file's 429s could not fail: four small stacks at a time barely pass the limit even alone.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { type Consumer, createConsumer, ok, REPO_ROOT, run, type RunResult } from "../helpers/consumer.js";
import { type Postgres, usePostgres } from "../helpers/postgres.js";

const TENANTS = 12;
const PARALLEL = 4;
const TOKEN = `e2e-tenants-${randomUUID()}`;
/** Tight for four deployments at once: each phase's first requests of four engines together pass the burst. */
const RATE = { perSecond: 8, burst: 4 };
const DATABASE = "tenants";

const postgres = usePostgres();
let pg: Postgres;
let emu: RunningEmulator;
let c: Consumer;
let shared = "";
const started = performance.now();
const tenants: { name: string; prompt: string; voice: string; agent: string; number: string }[] = [];

beforeAll(async () => {
  pg = await postgres();
  const backend = await pg.backend(DATABASE);
  console.log(`embedded PostgreSQL on 127.0.0.1:${pg.port}, started in ${Math.round(pg.startMs)} ms`);
  emu = await startEmulator({ tokens: [TOKEN], seed: true, api: "2024", rateLimit: RATE });
  const numbers = emu.addNumbers(TOKEN, { count: TENANTS, prefix: "+1555720" }).numbers;
  for (let i = 0; i < TENANTS; i++) {
    const name = `tenant-${String(i).padStart(2, "0")}`;
    tenants.push({
      name,
      prompt: `You answer for ${name}; its rules are private (${randomUUID()}).`,
      voice: i % 2 ? "en-US-GuyNeural" : "en-US-JennyNeural",
      agent: `${name} desk`,
      number: numbers[i]!,
    });
  }
  // The deployments' machine folder, this test's own (coordination/machine.ts): the twelve stacks
  // share it as deployments of one user on one machine do, and no other test's meet them there.
  shared = mkdtempSync(path.join(tmpdir(), "va-tenants-"));
  c = createConsumer({
    name: "example-tenants",
    files: { copyFrom: path.join(REPO_ROOT, "examples/tenants") },
    redirect: { "pulumi-voiceagent": `file:${inject("providerTarball")}` },
    env: {
      PULUMI_BACKEND_URL: backend,
      VOICEAGENT_BASE_URL: emu.url,
      VOICEAGENT_TOKEN: TOKEN,
      VOICEAGENT_SHARED_DIR: shared,
    },
  });
  await c.install();
  ok("npm run build", await run("npm", ["run", "build"], { cwd: c.dir, env: c.env }));
  writeFileSync(path.join(c.dir, "all.json"), JSON.stringify(tenants));
  writeFileSync(path.join(c.dir, "one.json"), JSON.stringify([tenants[7]]));
  // The drift pass previews the drifted tenant and one other at once, not all twelve: what it proves
  // (the edit is that tenant's drift only) needs another tenant in the same pass, not every stack's
  // engine again (each a refreshing preview of three resources).
  writeFileSync(path.join(c.dir, "some.json"), JSON.stringify(tenants.slice(2, 4)));
}, 300_000);
afterAll(async () => {
  // What the rate limit cost: the requests and the floor they set at RATE (the least time the run
  // waited for turns), and the 429s (pacing: asserted where a count can fail, see the top).
  if (emu) {
    const refused = Object.values(emu.stats.rateLimited).reduce((a, b) => a + b, 0);
    const floor = (emu.stats.total / RATE.perSecond).toFixed(1);
    console.log(`tenants test: ${emu.stats.total} requests (floor ${floor} s at ${RATE.perSecond}/s), ${refused} 429s`);
  }
  c?.dispose();
  await emu?.close();
  if (shared) rmSync(shared, { recursive: true, force: true });
  console.log(`tenants test: ${Math.round((performance.now() - started) / 1000)} s in all`);
});

/** `node bin/provision.js <action> <file> --parallel 4` in the project; never throws for its exit code. */
const provision = (action: string, file = "all.json"): Promise<RunResult> =>
  run(process.execPath, ["bin/provision.js", action, file, "--parallel", String(PARALLEL)], {
    cwd: c.dir,
    env: c.env,
  });
/** The summary's section `result`: the tenants it lists. */
const listed = (out: string, result: string): string[] => {
  const section = new RegExp(`^  ${result} \\(\\d+\\):\\n((?:    .*\\n?)*)`, "m").exec(out)?.[1] ?? "";
  return [...section.matchAll(/^ {4}([^:]+):/gm)].map((m) => m[1]!);
};
/** Stored objects of `kind` on the account (what the service holds, read without a request). */
const stored = (kind: string): { id: string; data: Record<string, unknown> }[] =>
  (emu.store.db.prepare("SELECT id, data FROM objects WHERE kind = ?").all(kind) as { id: string; data: string }[]).map(
    (r) => ({ id: r.id, data: JSON.parse(r.data) as Record<string, unknown> }),
  );

/** The tenant's objects as the service holds them: its agent (by its prompt), that agent's voice, its number. */
const objectsOf = (t: (typeof tenants)[number]) => {
  const agents = stored("agent").filter((a) => a.data.prompt === t.prompt);
  const voice = stored("voice").find((v) => v.id === agents[0]?.data.voice);
  const line = stored("number").find((n) => n.data.number === t.number);
  return { agents, voice, line };
};

describe(`${TENANTS} tenant stacks through the Automation API, ${PARALLEL} at a time, state on PostgreSQL`, () => {
  const drifted = () => tenants[3]!;
  const destroyed = () => tenants[7]!;

  it("up: every tenant converges in one pass with exactly its objects", async () => {
    // One tenant's stack is there already, as on a re-run or when its team made it by hand: the
    // run lists it and selects it (the others it creates), and the tenant converges all the same.
    await c.pulumi(["stack", "init", tenants[0]!.name]);
    const up = await provision("up");
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(listed(up.stdout, "converged").sort()).toEqual(tenants.map((t) => t.name));
    for (const t of tenants) {
      expect(up.stdout).toContain(`[${t.name}] up: converged (create 4)`);
      const { agents, voice, line } = objectsOf(t);
      expect(agents, t.name).toHaveLength(1);
      expect((agents[0]!.data.current as { name?: string } | undefined)?.name).toBe(t.agent);
      expect(voice?.data.voice_name).toBe(t.voice);
      expect(line?.data.inbound_agent).toBe(agents[0]!.id);
    }
    // Nothing made twice: one agent and one voice per tenant, one bind per line.
    expect(emu.stats.writes["POST /v1/agents/create"]).toBe(TENANTS);
    expect(emu.stats.writes["POST /v1/voices/create"]).toBe(TENANTS);
  }, 900_000);

  it("drift: a hand edit in one tenant is that tenant's drift only; the others have converged", async () => {
    const t = drifted();
    const voice = objectsOf(t).voice!;
    // The dashboard's edit: no request, only the stored voice changed.
    emu.store.db
      .prepare("UPDATE objects SET data = json_set(data, '$.voice_name', ?) WHERE kind = 'voice' AND id = ?")
      .run("en-GB-RyanNeural", voice.id);
    const writes = { ...emu.stats.writes };
    const previewed = tenants.slice(2, 4);
    expect(previewed).toContain(t);
    const drift = await provision("drift", "some.json");
    expect(drift.code, drift.stdout + drift.stderr).toBe(3);
    expect(listed(drift.stdout, "drifted")).toEqual([t.name]);
    expect(drift.stdout).toMatch(new RegExp(`^    ${t.name}: voice \\(update\\)$`, "m"));
    expect(listed(drift.stdout, "converged").sort()).toEqual(previewed.filter((o) => o !== t).map((o) => o.name));
    // A preview changes nothing: the edit is still there, nothing was written.
    expect(emu.stats.writes).toEqual(writes);
  }, 900_000);

  it("destroy of one tenant removes its objects and stack; the others' lines are still answered", async () => {
    const gone = destroyed();
    const before = objectsOf(gone);
    const down = await provision("destroy", "one.json");
    expect(down.code, down.stdout + down.stderr).toBe(0);
    expect(listed(down.stdout, "destroyed")).toEqual([gone.name]);
    expect(down.stdout).toContain(`[${gone.name}] destroy: destroyed (delete 4)`);
    // The current API can neither unbind a number nor delete an agent: destroy forgets both (the
    // provider says so), so the line stays with its own agent, never another tenant's.
    expect(objectsOf(gone).line?.data.inbound_agent).toBe(before.agents[0]!.id);
    for (const t of tenants.filter((o) => o !== gone)) {
      const { agents, line } = objectsOf(t);
      expect(agents, t.name).toHaveLength(1);
      expect(line?.data.inbound_agent, t.name).toBe(agents[0]!.id);
    }
  }, 300_000);

  it("the state table holds every remaining tenant's stack and no secret in plain text", async () => {
    const dump = await pg.dump(DATABASE);
    const keys = (await pg.query(DATABASE, "SELECT key FROM pulumi_state")).map((r) => String(r.key));
    for (const t of tenants) {
      const held = keys.some((k) => k.endsWith(`/${t.name}.json`) || k.endsWith(`/${t.name}.json.gz`));
      expect(held, `${t.name}'s stack in the table`).toBe(t !== destroyed());
      // The state is there (its agent's id), its secrets are not.
      if (t !== destroyed()) expect(dump).toContain(objectsOf(t).agents[0]!.id);
      expect(dump.includes(t.prompt), `${t.name}'s prompt in the table`).toBe(false);
    }
    expect(dump.includes(TOKEN), "the token in the table").toBe(false);
  });
});
