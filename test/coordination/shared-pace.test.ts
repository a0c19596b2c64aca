// Pacing shared by one deployment's provider processes (coordination/shared-pace.ts): the service
// limits the token, so two processes sending with one token must pace to one learned rate from one
// schedule. The processes are real child processes running the compiled host and client
// (provider/dist), started on one signal (their stdin closing) against a rate-limited emulator in
// this process; each reports when each of its requests was answered, so the test sees that they
// sent side by side (interleaved), not one after the other (where sharing would change nothing).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { lock } from "proper-lockfile";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { freshPace, Pacer, paceLimited, paceTake } from "../../provider/client/pace.js";
import { SharedDeployment } from "../../provider/coordination/deployment.js";
import { SharedPace } from "../../provider/coordination/shared-pace.js";
import { REPO_ROOT } from "../helpers/consumer.js";

const DIST = path.join(REPO_ROOT, "provider/dist");
const TOKEN = "shared-pace-token-value";
let root: string;
let emu: RunningEmulator | undefined;
const children: ChildProcess[] = [];
/**
 * `VOICEAGENT_PACE_ALONE=1` in this test's environment makes every process pace alone, the runs
 * meant to share included: the cases below that compare the two must then fail (they measure the
 * sharing, not the machine's speed).
 */
const SHARING = process.env.VOICEAGENT_PACE_ALONE !== "1";

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "va-pace-"));
});
afterEach(async () => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  await emu?.close();
  emu = undefined;
  rmSync(root, { recursive: true, force: true });
});

/**
 * A provider process of the deployment of the engine at `address`: it joins the deployment (as a
 * plugin's main does), says "ready", and when its stdin closes sends `count` reads with the token
 * (`CONCURRENCY` at a time), printing "paced" once `signal` of them are answered, and at the end the times
 * its requests were answered and the 429s it met.
 */
function providerProcess(
  address: string,
  baseUrl: string,
  voice: string,
  count: number,
  signal: number,
  alone: boolean,
  /** The engine's pid: this test's by default (one deployment), the child's own for a deployment of its own. */
  engine: "test" | "own" = "test",
) {
  const script = `
    const { Host } = require(${JSON.stringify(`${DIST}/host.js`)});
    const { createClient, pacerFor } = require(${JSON.stringify(`${DIST}/client/index.js`)});
    const host = new Host({ notes: () => {} });
    host.join(${JSON.stringify(address)}, { root: ${JSON.stringify(root)}, enginePid: ${engine === "own" ? "process.pid" : process.pid} });
    const settings = { baseUrl: ${JSON.stringify(baseUrl)}, token: ${JSON.stringify(TOKEN)} };
    const client = host.run(() => createClient({ ...settings, concurrency: ${CONCURRENCY} }));
    process.stdin.resume();
    process.stdin.on("end", async () => {
      const answered = [];
      await host.run(() => Promise.all(Array.from({ length: ${count} }, async () => {
        await client.voices.get(${JSON.stringify(voice)});
        answered.push(Date.now());
        if (answered.length === ${signal}) console.log("paced");
      })));
      const limited = host.run(() => pacerFor(settings.baseUrl, settings.token)).stats.rateLimited;
      console.log(JSON.stringify({ answered, limited }));
      host.leave();
    });
    console.log("ready");`;
  const env = { ...process.env, VOICEAGENT_PACE_ALONE: alone || !SHARING ? "1" : "0" };
  const proc = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "inherit"], env });
  children.push(proc);
  const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
  const next = async () => String((await lines.next()).value);
  return { proc, next };
}

/**
 * How far two processes' answers overlap: the fewer of (the first's answers between the second's
 * first and last) and (the second's between the first's first and last). One after the other: 0.
 */
function overlap(a: number[], b: number[]): number {
  const within = (xs: number[], ys: number[]) => xs.filter((t) => t >= Math.min(...ys) && t <= Math.max(...ys)).length;
  return Math.min(within(a, b), within(b, a));
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((x, y) => x + y, 0);

/**
 * Two provider processes of one deployment, one token: the first sends alone until the limit has
 * taught it a rate and `SIGNAL` of its reads are answered; then the second starts beside it (as the
 * dynamic provider host starting while the plugin runs, or a second explicit provider's first
 * resource). What the emulator answered from then on: the 429s, and how the two interleaved.
 */
async function secondJoins(
  alone: boolean,
  /** The second process in another deployment (another engine, address and folder) of the same machine. */
  apart = false,
): Promise<{ limited: number; second: number; overlap: number }> {
  // A limit a loaded machine's two processes exceed together many times over when each paces alone
  // (at 40 a second a machine at load 15 on 2 cores sometimes sent little more than the limit: too
  // few 429s alone to tell sharing from luck).
  emu = await startEmulator({ tokens: [TOKEN], seed: true, rateLimit: { perSecond: LIMIT, burst: 10 } });
  const voice = emu.seeds.get(TOKEN)!.voices[0]!;
  const address = () => `127.0.0.1:${40000 + Math.floor(Math.random() * 20000)}`;
  const at = address();
  // The first has 70 left to send once the second starts: at the limit, longer than the second's
  // 60 take to start and be sent on a loaded machine, so the two overlap however late the second starts.
  const first = providerProcess(at, emu.url, voice, 120, SIGNAL, alone);
  const second = apart
    ? providerProcess(address(), emu.url, voice, 60, -1, alone, "own")
    : providerProcess(at, emu.url, voice, 60, -1, alone);
  for (const p of [first, second]) expect(await p.next()).toBe("ready");
  first.proc.stdin!.end();
  expect(await first.next()).toBe("paced");
  // The first met the limit alone (its first burst): it paces to a learned rate now.
  expect(sum(emu.stats.rateLimited)).toBeGreaterThan(0);
  emu.resetStats();
  const startedAt = Date.now();
  second.proc.stdin!.end();
  const [a, b] = await Promise.all(
    [first, second].map(async (p) => JSON.parse(await p.next()) as { answered: number[]; limited: number }),
  );
  const limited = sum(emu.stats.rateLimited);
  await emu.close();
  emu = undefined;
  return {
    limited,
    second: b!.limited,
    overlap: overlap(
      a!.answered.filter((t) => t >= startedAt),
      b!.answered,
    ),
  };
}

const SIGNAL = 50;
const LIMIT = 20;
/** The requests each process has in flight at once. */
const CONCURRENCY = 16;

describe("pacing shared by the deployment's provider processes", () => {
  it(`a second process with the same token joins the first's learned pace: far fewer 429s than each pacing alone, \
the two sending side by side`, async () => {
    const alone = await secondJoins(true);
    const together = await secondJoins(false);
    console.log(
      `a second process joins at ${LIMIT}/s: ${alone.limited} 429s pacing alone (${alone.second} of them the second's), ` +
        `${together.limited} together (${together.second}); answers of each within the other's span: ${alone.overlap}, ${together.overlap}`,
    );
    // Alone, the second starts unpaced into a bucket the first keeps nearly empty, and the two
    // pace to a sum over the limit; together it takes its turns from the first's schedule.
    expect(alone.limited).toBeGreaterThanOrEqual(4);
    expect(together.limited).toBeLessThan(alone.limited / 2);
    // The second's own: alone its first CONCURRENCY requests go out at once into that bucket, most
    // of them meeting 429s; joined, they take turns.
    expect(together.second).toBeLessThan(CONCURRENCY / 2);
    // Together, side by side: each answered many requests while the other was being answered (so
    // the few 429s are the sharing's, not the two sending one after the other). Alone it is not
    // asserted: one of the two may starve the other of the service's bucket (on a loaded machine
    // 9 of 60 of the second's answers fell within the first's span), and two that did not send
    // side by side would only meet fewer 429s alone, failing the comparison above, not passing it.
    expect(together.overlap).toBeGreaterThan(20);
    // Four child processes and 360 reads at the limit: 25 s on a quiet machine, over 60 s beside the
    // suite's CLI files (a fresh clone's run timed out at vitest's default).
  }, 180_000);

  // Two stacks of one account deploying at once on one machine: two engines, two deployment
  // folders, one machine folder (coordination/machine.ts) where the token's pace is kept.
  it(`a process of ANOTHER deployment on the same machine with the same token joins the first's learned pace: far fewer \
429s than each pacing alone`, async () => {
    const alone = await secondJoins(true);
    const apart = await secondJoins(false, true);
    console.log(
      `another deployment joins at ${LIMIT}/s: ${alone.limited} 429s pacing alone (${alone.second} of them the second's), ` +
        `${apart.limited} sharing the machine's pace (${apart.second}); overlap ${alone.overlap}, ${apart.overlap}`,
    );
    expect(alone.limited).toBeGreaterThanOrEqual(4);
    expect(apart.limited).toBeLessThan(alone.limited / 2);
    expect(apart.second).toBeLessThan(CONCURRENCY / 2);
    expect(apart.overlap).toBeGreaterThan(20);
    // Two deployment folders, one machine folder holding the token's pace.
    const dirs = readdirSync(root);
    expect(dirs.filter((d) => d.startsWith("machine-"))).toHaveLength(1);
    expect(dirs.filter((d) => /^[0-9a-f]{24}$/.test(d)).length).toBeGreaterThanOrEqual(2);
  });

  it("the first 429 learns the rate every process of the deployment sent, not this one's share", async () => {
    const shared = new SharedDeployment(root, "key");
    // Another process sent 9 requests in this second and said so (as its pacer does while no limit is known).
    await new SharedPace(shared, TOKEN).publishSent(9);
    const pacer = new Pacer();
    pacer.share(new SharedPace(shared, TOKEN));
    for (let i = 0; i < 10; i++) await pacer.take();
    pacer.onRateLimited();
    // The next turn is taken once the 429 is told: 9 of this process's before it, and the other's 9.
    await pacer.take();
    expect(pacer.perSecond).toBe(18);
  });

  it("writes no token: the state is named by a salted hash", async () => {
    const shared = new SharedDeployment(root, "key");
    const pacer = new Pacer();
    pacer.share(new SharedPace(shared, TOKEN));
    for (let i = 0; i < 6; i++) await pacer.take();
    pacer.onRateLimited();
    await pacer.take();
    const names = readdirSync(root);
    expect(names.some((n) => n.startsWith("pace-"))).toBe(true);
    expect(names.join("\n")).not.toContain(TOKEN);
  });

  it("a lock left by a process that died holding it: a step waits until it is stale, takes it over and writes its turn", async () => {
    const shared = new SharedDeployment(root, "key");
    const store = new SharedPace(shared, TOKEN);
    // A limit of 10 a second is known (written as a process would have).
    const file = path.join(root, `pace-${shared.hashed("pace", TOKEN)}.json`);
    writeFileSync(file, JSON.stringify({ ...freshPace(), rate: 10, lastLimited: Date.now() }));
    // The lock of a process killed mid-step 1.5 s ago: a folder proper-lockfile made, never refreshed since.
    mkdirSync(`${file}.lock`);
    const killedAt = new Date(Date.now() - 1_500);
    utimesSync(`${file}.lock`, killedAt, killedAt);
    await store.update((s) => paceTake(s, store.now()));
    // The step went under the lock it took over: written, not run on this process's view alone.
    const written = JSON.parse(readFileSync(file, "utf8")) as { sentSinceDecrease: number };
    expect(written.sentSinceDecrease).toBe(1);
  });

  it(
    "a step waits for a lock a live process holds longer than a step takes, and takes its turn " +
      "from the schedule that process wrote, not from its own view",
    async () => {
      const shared = new SharedDeployment(root, "key");
      const store = new SharedPace(shared, TOKEN);
      const file = path.join(root, `pace-${shared.hashed("pace", TOKEN)}.json`);
      const pace = (nextAt: number) => JSON.stringify({ ...freshPace(), rate: 10, lastLimited: Date.now(), nextAt });
      writeFileSync(file, pace(Date.now()));
      // This process's view: a limit of 10 a second, the next turn now.
      expect(await store.limited()).toBe(true);
      // Another process takes the lock as the stores do (proper-lockfile, refreshed while it lives) ...
      const release = await lock(file, { realpath: false, stale: 2_000, retries: { retries: 20, minTimeout: 5 } });
      // ... and while it holds it, the turns of 600 requests are given out: the next free one is a minute away.
      const queued = Date.now() + 60_000;
      writeFileSync(file, pace(queued));
      let went = false;
      const turn = store
        .update((s) => {
          const now = store.now();
          return now + paceTake(s, now);
        })
        .finally(() => {
          went = true;
        });
      // Held for a second (a loaded machine's slow holder; four times what a step once waited before
      // pacing on its own view): no step goes meanwhile.
      await Promise.race([turn, sleep(1_000)]);
      expect(went).toBe(false);
      await release();
      // Its turn is the next on the holder's schedule, and it is written there for the next process.
      expect(await turn).toBe(queued);
      const written = JSON.parse(readFileSync(file, "utf8")) as { nextAt: number; sentSinceDecrease: number };
      expect(written.nextAt).toBe(queued + 100);
      expect(written.sentSinceDecrease).toBe(1);
    },
  );

  it("a clock set back leaves no turn far ahead: a next turn minutes away is taken as now", async () => {
    const shared = new SharedDeployment(root, "key");
    const name = `pace-${shared.hashed("pace", TOKEN)}.json`;
    // As written by a process whose clock then went back an hour: every time an hour ahead.
    const ahead = Date.now() + 3_600_000;
    writeFileSync(
      path.join(root, name),
      JSON.stringify({
        ...freshPace(),
        rate: 10,
        nextAt: ahead,
        lastLimited: ahead,
        lastDecrease: ahead,
        lastIncrease: ahead,
      }),
    );
    const pacer = new Pacer();
    pacer.share(new SharedPace(shared, TOKEN));
    const started = Date.now();
    await pacer.take();
    // Its turn came at once (a next turn an hour ahead would have held it an hour) ...
    expect(Date.now() - started).toBeLessThan(30_000);
    // ... and the next one is a tenth of a second later, at the learned rate.
    const written = JSON.parse(readFileSync(path.join(root, name), "utf8")) as { nextAt: number; rate: number };
    expect(written.rate).toBe(10);
    expect(written.nextAt).toBeLessThan(started + 60_000);
  });

  it("a clock set back less than minutes moves every stored time with it: the next turn, and the end of ignoring 429s", async () => {
    const shared = new SharedDeployment(root, "key");
    let clock = 1_000_000_000;
    const store = new SharedPace(shared, TOKEN, () => clock);
    const name = `pace-${shared.hashed("pace", TOKEN)}.json`;
    writeFileSync(path.join(root, name), JSON.stringify({ ...freshPace(), rate: 10, lastLimited: clock }));
    // Turns taken on the schedule (the wait each is given, not slept here).
    const take = () => store.update((s) => paceTake(s, store.now()));
    expect(await take()).toBe(0);
    expect(await take()).toBe(100);
    // The wall clock goes back two minutes: the next turn is still a tenth of a second away, not two minutes.
    clock -= 120_000;
    expect(await take()).toBeLessThanOrEqual(200);

    // Written while 429s were ignored for 1 s more, by a clock since set back an hour: they are
    // ignored for that second, not for an hour and a second.
    const ahead = clock + 3_600_000;
    writeFileSync(
      path.join(root, name),
      JSON.stringify({ ...freshPace(), rate: 10, lastLimited: ahead, seenAt: ahead, ignoreUntil: ahead + 1_000 }),
    );
    const ignoredFor = await store.update((s) => {
      paceLimited(s, store.now(), 0);
      return s.ignoreUntil - store.now();
    });
    expect(ignoredFor).toBeLessThanOrEqual(1_000);
  });

  it(`an answer another process heard keeps this one's wait credited: the queue moves (answeredAt, told through the \
shared file), and once no process has heard one for a budget it no longer does`, async () => {
    const shared = new SharedDeployment(root, "key");
    let clock = 1_000_000_000;
    const file = path.join(root, `pace-${shared.hashed("pace", TOKEN)}.json`);
    // A limit learned: 1 a second, the next turn now.
    writeFileSync(file, JSON.stringify({ ...freshPace(), rate: 1, lastLimited: clock }));
    // Two processes' views of the state (each its own SharedPace over the file), on one simulated
    // clock that a wait for a turn moves.
    const view = () => {
      const pacer = new Pacer(
        () => clock,
        () => {},
        async (ms) => {
          clock += ms;
        },
      );
      pacer.share(new SharedPace(shared, TOKEN, () => clock));
      return pacer;
    };
    const here = view();
    const there = view();
    const budgetMs = 3_000;
    await here.take();
    // No process heard an answer: a wait is not credited.
    expect(here.answeredWithin(budgetMs)).toBe(false);
    await there.take();
    there.onAnswered();
    // Told to the file (within TELL_MS, the simulated clock's), not to `here` directly.
    await vi.waitFor(() => expect(JSON.parse(readFileSync(file, "utf8"))).toHaveProperty("answeredAt"));
    // `here` heard nothing itself; its next turn (a second away) reads the state.
    await here.take();
    expect(here.answeredWithin(budgetMs)).toBe(true);
    // A budget later with no answer anywhere: the service is refusing, not queueing.
    clock += budgetMs + 1;
    expect(here.answeredWithin(budgetMs)).toBe(false);
  });

  it("every step of every request is counted in the shared state, grouped or not (cost per request printed)", async () => {
    const shared = new SharedDeployment(root, "key");
    const name = `pace-${shared.hashed("pace", TOKEN)}.json`;
    // A limit so high that no request waits: what is measured is the shared state's own cost.
    writeFileSync(path.join(root, name), JSON.stringify({ ...freshPace(), rate: 1e9, lastLimited: Date.now() }));
    const pacer = new Pacer();
    pacer.share(new SharedPace(shared, TOKEN));
    const n = 200;
    let started = performance.now();
    for (let i = 0; i < n; i++) await pacer.take();
    const oneByOne = (performance.now() - started) / n;
    started = performance.now();
    await Promise.all(Array.from({ length: n }, () => pacer.take()));
    const atOnce = (performance.now() - started) / n;
    console.log(
      `shared pacing cost: ${oneByOne.toFixed(3)} ms a request one by one, ${atOnce.toFixed(3)} ms with ${n} at once`,
    );
    const written = JSON.parse(readFileSync(path.join(root, name), "utf8")) as { sentSinceDecrease: number };
    expect(written.sentSinceDecrease).toBe(2 * n);
  });
});
