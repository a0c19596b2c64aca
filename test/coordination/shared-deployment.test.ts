// What one deployment's provider processes know together (coordination/deployment.ts, coordination/shared-ledger.ts):
// the engine runs one plugin process per provider instance, so a number declared through one and
// a create sent by another must meet in the deployment's shared folder. Other processes are real
// child processes running the compiled kit (provider/dist); two ledgers in this process stand for
// two processes where only the order of steps matters. No step waits on a clock: each ordering is
// forced by the fake service's gates or by a child's answer.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClient, type RequestLogEvent } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import {
  closedToOthers,
  joinFromDynamicHost,
  scopeOf,
  type SharedDeployment,
} from "../../provider/coordination/deployment.js";
import { PartialCreateError } from "../../provider/resources/kit/errors.js";
import { lock as lockFile } from "proper-lockfile";
import { SharedLedger } from "../../provider/coordination/shared-ledger.js";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { Host } from "../../provider/host.js";
import { holdDelays } from "../helpers/held-delays.js";
import { REPO_ROOT } from "../helpers/consumer.js";
import { FAKE_VOICE_ID, startFakeService, type FakeService } from "../helpers/fake-service.js";
import { gate } from "../helpers/gate.js";

const KIT = path.join(REPO_ROOT, "provider/dist/coordination");
const HOST = path.join(REPO_ROOT, "provider/dist/host.js");
const N = "+15550010003";
let root: string;
let fake: FakeService | undefined;
const children: ChildProcess[] = [];
/** The engine every process of the test's deployment names: this process (it is alive throughout). */
const engine = { enginePid: process.pid };
const address = () => `127.0.0.1:${40000 + Math.floor(Math.random() * 20000)}`;

/** This process's host, as a plugin's main builds it; each test starts with a new one. */
let host = new Host();
/** Joins this process's host to the deployment of the engine at `at`. */
const joinDeployment = (at: string, opts: Parameters<Host["join"]>[1]) => host.join(at, opts);
const leaveDeployment = () => host.leave();

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "va-shared-"));
  host = new Host();
});
afterEach(async () => {
  leaveDeployment();
  for (const c of children.splice(0)) c.kill("SIGKILL");
  await fake?.close();
  fake = undefined;
  rmSync(root, { recursive: true, force: true });
});

/** Runs `code` (CommonJS, with `kit(name)` requiring a compiled kit module) in a child process; resolves with its first stdout line. */
function child(code: string): Promise<string> {
  const script =
    `const kit = (n) => require(${JSON.stringify(KIT)} + "/" + n + ".js");\n` +
    `const host = new (require(${JSON.stringify(HOST)}).Host)();\n${code}`;
  const proc = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(proc);
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n");
      if (line.length > 1) resolve(line[0]!);
    });
    proc.once("exit", (code) => reject(new Error(`the child exited (${code}) before answering`)));
  });
}

describe("declared numbers: one deployment, several processes", () => {
  it("a number declared in another process of the deployment holds back this process's delete; another deployment's does not", async () => {
    const at = address();
    const join = `host.join(${JSON.stringify(at)}, { root: ${JSON.stringify(root)}, enginePid: ${process.pid} });`;
    expect(
      await child(
        `${join} host.run(() => host.claims.declare("PhoneNumber", ${JSON.stringify(N)})); console.log("declared");`,
      ),
    ).toBe("declared");
    joinDeployment(address(), { root, ...engine });
    expect(host.run(() => host.claims.of("PhoneNumber", N, { limitedBy: undefined }))).toEqual({ status: "free" });
    joinDeployment(at, { root, ...engine });
    expect(host.run(() => host.claims.of("PhoneNumber", N, { limitedBy: undefined }))).toEqual({ status: "declared" });
    // Per kind, as in one process: a binding's declaration does not keep a purchase.
    expect(host.run(() => host.claims.of("PurchasedNumber", N, { limitedBy: undefined }))).toEqual({ status: "free" });
  });

  it("nothing secret is written: the folder names neither the number nor the token", async () => {
    const shared = joinDeployment(address(), { root, ...engine });
    shared.mark("declared", "PhoneNumber", N);
    await new SharedLedger(shared, "secret-token-value").claim(randomUUID());
    const names = readdirSync(shared.dir, { recursive: true, encoding: "utf8" });
    expect(names.join("\n")).not.toMatch(/5550010003|secret-token-value/);
  });

  it("a number bound by a PhoneNumber of another process of the deployment is refused at this one's check, naming it", async () => {
    const at = address();
    const urn = (name: string) => `urn:pulumi:dev::p::voiceagent:index:PhoneNumber::${name}`;
    const join = `host.join(${JSON.stringify(at)}, { root: ${JSON.stringify(root)}, enginePid: ${process.pid} });`;
    const hold = (name: string) =>
      `console.log(JSON.stringify(host.run(() => host.bindings.hold("PhoneNumber", "number", ` +
      `${JSON.stringify(N)}, ${JSON.stringify(urn(name))})) ?? "held"));`;
    // The first holder, in a process of its own; asked again (a migration checks twice), still no conflict.
    expect(await child(`${join} ${hold("line-a")}`)).toBe('"held"');
    expect(await child(`${join} ${hold("line-a")}`)).toBe('"held"');
    // Another deployment (another engine address) knows nothing of it.
    joinDeployment(address(), { root, ...engine });
    expect(host.run(() => host.bindings.hold("PhoneNumber", "number", N, urn("line-b")))).toBeUndefined();
    host = new Host();
    joinDeployment(at, { root, ...engine });
    const refused = host.run(() => host.bindings.hold("PhoneNumber", "number", N, urn("line-b")));
    expect(refused?.reason).toMatch(
      /^number is also bound by PhoneNumber 'line-a' in this program: .*Remove 'line-b' or 'line-a'/,
    );
    const written = readdirSync(root, { recursive: true, encoding: "utf8" });
    expect(written.join("\n")).not.toMatch(/5550010003/);
  });

  it(`a number bound by a PhoneNumber of another process of the deployment is refused at this one's LinkedNumber check, \
naming both`, async () => {
    const at = address();
    const urn = (kind: string, name: string) => `urn:pulumi:dev::p::voiceagent:index:${kind}::${name}`;
    const join = `host.join(${JSON.stringify(at)}, { root: ${JSON.stringify(root)}, enginePid: ${process.pid} });`;
    const hold =
      `console.log(JSON.stringify(host.run(() => host.bindings.hold("PhoneNumber", "number", ` +
      `${JSON.stringify(N)}, ${JSON.stringify(urn("PhoneNumber", "line-a"))})) ?? "held"));`;
    expect(await child(`${join} ${hold}`)).toBe('"held"');
    joinDeployment(at, { root, ...engine });
    const refused = host.run(() => host.bindings.hold("LinkedNumber", "number", N, urn("LinkedNumber", "own-a")));
    expect(refused?.reason).toMatch(
      /^number of LinkedNumber 'own-a' is also the number of PhoneNumber 'line-a' in this program: .*Remove 'own-a' or 'line-a'/,
    );
    expect(readdirSync(root, { recursive: true, encoding: "utf8" }).join("\n")).not.toMatch(/5550010003/);
  });

  it("a shared folder others can write to is refused, so the plugin does not start on it", () => {
    chmodSync(root, 0o777);
    expect(() => joinDeployment(address(), { root, ...engine })).toThrow(/TMPDIR/);
  });

  it(`a shared folder's name made first by someone else does not stop the plugin: the next place of this user is used, nothing made in the \
squatted one`, () => {
    // Any local user can make /tmp/pulumi-voiceagent-shared-<uid> before this user does.
    const squatted = path.join(root, "squatted");
    mkdirSync(squatted, { mode: 0o777 });
    chmodSync(squatted, 0o777);
    const own = path.join(root, "runtime", "pulumi-voiceagent-shared");
    const at = address();
    const joined = joinDeployment(at, { roots: [squatted, own], ...engine });
    expect(path.dirname(joined.dir)).toBe(own);
    expect(readdirSync(squatted)).toEqual([]);
    // Every process of the deployment makes the same choice.
    leaveDeployment();
    expect(joinDeployment(at, { roots: [squatted, own], ...engine }).dir).toBe(joined.dir);
  });

  it("the dynamic-provider host joins the folder its engine's plugins join; a process not started by an engine joins none", () => {
    const engineFound = () => ({ limitedBy: undefined, pid: process.pid });
    // The program's own process, a test runner: no engine address last.
    expect(joinFromDynamicHost(["node", "/app/index.js"], { root, found: engineFound })).toBeUndefined();
    // An address, but no `pulumi` among the ancestors.
    expect(
      joinFromDynamicHost(["node", "dynamic-provider", "127.0.0.1:4567"], { root, found: () => undefined }),
    ).toBeUndefined();
    const host = joinFromDynamicHost(["node", "dynamic-provider", "--logtostderr", "-v=9", "127.0.0.1:4567"], {
      root,
      found: engineFound,
    });
    leaveDeployment();
    const plugin = joinDeployment("127.0.0.1:4567", { root, ...engine });
    expect(host?.dir).toBe(plugin.dir);
  });

  it("a folder is closed to others by its owner and mode; on Windows, where modes say nothing, by the profile's ACL", () => {
    const folder = (uid: number, mode: number, dir = true) => ({ uid, mode, isDirectory: () => dir });
    expect(closedToOthers(folder(1000, 0o40700), "linux", 1000)).toBe(true);
    expect(closedToOthers(folder(1000, 0o40750), "linux", 1000)).toBe(false);
    expect(closedToOthers(folder(0, 0o40700), "darwin", 1000)).toBe(false);
    expect(closedToOthers(folder(1000, 0o120777, false), "linux", 1000)).toBe(false);
    // What Node's fs.lstat reports for any folder on Windows (no uid; no getuid there).
    expect(closedToOthers(folder(0, 0o40666), "win32", undefined)).toBe(true);
    expect(closedToOthers(folder(0, 0o100666, false), "win32", undefined)).toBe(false);
  });

  it("a deployment's folder is removed once its engine is gone, not while it runs", async () => {
    const gone = path.join(root, "gone");
    mkdirSync(gone);
    // A pid no process holds: the largest a Linux pid can be, plus one; seen from this very scope.
    writeFileSync(path.join(gone, "engine.json"), JSON.stringify({ pid: 4194305, started: "", scope: scopeOf() }));
    const live = joinDeployment(address(), { root, ...engine });
    joinDeployment(address(), { root, ...engine });
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(live.dir)).toBe(true);
  });

  it("a folder whose engine this process cannot see (another PID namespace, a release that recorded none) is kept until silent for a day", () => {
    const folder = (name: string, scope: string | undefined, silentMs: number) => {
      const dir = path.join(root, name);
      mkdirSync(dir);
      const file = path.join(dir, "engine.json");
      writeFileSync(file, JSON.stringify({ pid: 4194305, started: "", ...(scope ? { scope } : {}) }));
      const at = new Date(Date.now() - silentMs);
      utimesSync(file, at, at);
      return dir;
    };
    const otherNamespace = folder("other-ns", "another-boot/pid:[1]", 60_000);
    const noScope = folder("no-scope", undefined, 60_000);
    const abandoned = folder("abandoned", "another-boot/pid:[1]", 25 * 3_600_000);
    joinDeployment(address(), { root, ...engine });
    expect([existsSync(otherNamespace), existsSync(noScope), existsSync(abandoned)]).toEqual([true, true, false]);
  });

  it("the scope is the boot and the PID namespace where /proc tells them, the machine's name elsewhere", () => {
    expect(scopeOf({ boot: () => "b-1", ns: () => "pid:[4026531836]" })).toBe("b-1/pid:[4026531836]");
    const none = () => {
      throw new Error("ENOENT");
    };
    expect(scopeOf({ boot: none, ns: none })).toMatch(/^host:/);
    if (process.platform === "linux") {
      const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
      expect(scopeOf()).toBe(`${boot}/${readlinkSync("/proc/self/ns/pid")}`);
    }
  });
});

describe("bookkeeping after the service answered never loses the object", () => {
  let emu: RunningEmulator | undefined;
  afterEach(async () => emu?.close());

  it("the deployment's folder removed while a create is in flight: the agent is kept by its id as a partial create, made once", async () => {
    const shared = joinDeployment(address(), { root, ...engine });
    const token = `after-answer-${randomUUID()}`;
    emu = await startEmulator({ tokens: [token], seed: true });
    const voice = emu.seeds.get(token)!.voices[0]!;
    const settings = { baseUrl: emu.url, token };
    // The create is committed, then its answer held until the folder is gone.
    const held = holdDelays(emu.faults);
    emu.faults.add({ route: "/v1/agents/create", method: "POST", phase: "after", latencyMs: 1, count: 1 });
    const created = runtimeFor("Agent", host)
      .create(settings, { prompt: "Kept whatever the bookkeeping does.", voice })
      .catch((e: unknown) => e);
    await held.untilHolding(1);
    // The account's ledger lives in the machine's folder beside the deployment's (coordination/machine.ts).
    rmSync(shared.machine.dir, { recursive: true, force: true });
    held.release();
    const err = await created;
    const agents = await createClient({ baseUrl: emu.url, token }).agents.list.all();
    const made = agents.filter((a) => a.prompt === "Kept whatever the bookkeeping does.");
    expect(made).toHaveLength(1);
    if (!(err instanceof PartialCreateError)) throw err;
    expect(err.id).toBe(made[0]!.id);
    expect(err.message).toMatch(/exists on the service and is tracked in the state: run `pulumi up` again/);
    expect(emu.stats.writes["POST /v1/agents/create"]).toBe(1);
  });
});

describe("creates of one account through two ledgers of one deployment", () => {
  let shared: SharedDeployment;
  /** The deployment's engine address: a child process joins the same deployment (and so the same machine folder). */
  let at = "";
  /** The code that joins a child process to the test's deployment. */
  const joinInChild = () =>
    `const shared = kit("deployment").joinDeployment(${JSON.stringify(at)}, { root: ${JSON.stringify(root)}, enginePid: ${process.pid} });`;
  beforeEach(() => {
    at = address();
    shared = joinDeployment(at, { root, ...engine });
  });
  const fast = { retry: { baseDelayMs: 1, maxDelayMs: 5 }, reconcile: { checkDelayMs: 1 } };
  const agent = { prompt: "You answer the front desk.", voice: FAKE_VOICE_ID };
  /** A client of the account whose ledger is its own share of the deployment's (as another plugin process's is). */
  const clientOn = (f: FakeService, whenWaiting?: () => void) =>
    createClient({
      baseUrl: f.url,
      token: "t0ken",
      ledger: new SharedLedger(shared, "t0ken"),
      ...fast,
      onRequest: (e: RequestLogEvent) => void (e.event === "waiting" && whenWaiting?.()),
    });

  // The current API's own collections share the deployment's ledger like the others (its file
  // names each create's collection): identical prompts sent by two ledgers, both replies lost.
  it("identical prompts through two ledgers, both replies lost: two prompts, one each", async () => {
    const lossy = await startEmulator({
      tokens: ["t0ken"],
      api: "2024",
      faults: [{ route: "/v1/prompts/create", method: "POST", phase: "after", reset: true, count: 2 }],
    });
    try {
      const on = () =>
        createClient({
          baseUrl: lossy.url,
          token: "t0ken",
          api: "2024",
          ledger: new SharedLedger(shared, "t0ken"),
          ...fast,
        });
      const body = { content: "You book visits." };
      const made = await Promise.all([on().prompts.create(body), on().prompts.create(body)]);
      expect(lossy.stats.faults.after["POST /v1/prompts/create"]).toBe(2);
      expect(lossy.stats.byRoute["POST /v1/prompts/create"]).toBe(2);
      expect(new Set(made.map((p) => p.id)).size).toBe(2);
      expect((await on().prompts.list.all()).map((p) => p.id).sort()).toEqual(made.map((p) => p.id).sort());
    } finally {
      await lossy.close();
    }
  });

  // The race of test/client/reconcile-races.test.ts, each create sent by another ledger: the first
  // create is committed and its answer held; the second is refused (before or after its work). The
  // refused one must not take the held one's object: the held answer is released as soon as the
  // refused one either reads the list or waits for the held one.
  it.each([
    ["refused before its work", false],
    ["refused after its work", true],
  ])("identical creates, the second %s: two objects, two ids", async (_how, secondActs) => {
    fake = await startFakeService();
    const [a, b] = [clientOn(fake, () => release()), clientOn(fake, () => release())];
    // Each ledger's client has read its snapshot of the list before the race, as two plugin
    // processes that started together have: neither snapshot holds the other's objects.
    await Promise.all([
      a.agents.create({ ...agent, prompt: "A first." }),
      b.agents.create({ ...agent, prompt: "B first." }),
    ]);
    const { opened: released, open: release } = gate();
    const { opened: isCommitted, open: committed } = gate();
    let refused = false;
    fake.fates.push(
      async (commit) => {
        const obj = commit();
        committed();
        await released;
        return { json: obj };
      },
      (commit) => {
        if (secondActs) commit();
        refused = true;
        return { status: 503, json: { detail: "unavailable" } };
      },
    );
    fake.afterList = () => {
      if (refused) release();
    };
    const held = a.agents.create(agent);
    await isCommitted;
    const made = await Promise.all([held, b.agents.create(agent)]);
    const ids = made.map((m) => m.id);
    expect(new Set(ids).size).toBe(2);
    expect(
      fake.agents
        .filter((o) => o.prompt === agent.prompt)
        .map((o) => o.id)
        .sort(),
    ).toEqual([...ids].sort());
  });

  it("two processes claiming the same ids at once: each id is given once, and none is lost", async () => {
    const ids = Array.from({ length: 100 }, () => randomUUID());
    // Both start on one signal: the child when its stdin closes, this process at the same moment.
    const script =
      joinInChild() +
      `const ledger = new (kit("shared-ledger").SharedLedger)(shared, "t0ken");` +
      `process.stdin.resume(); process.stdin.on("end", async () => {` +
      `  const got = await Promise.all(${JSON.stringify(ids)}.map(async (id, i) => { await new Promise((r) => ` +
      `setImmediate(r)); return (await ledger.claim(id)) ? id : ""; }));` +
      `  console.log(JSON.stringify(got.filter(Boolean)));` +
      `}); console.log("ready");`;
    const proc = spawn(
      process.execPath,
      ["-e", `const kit = (n) => require(${JSON.stringify(KIT)} + "/" + n + ".js");\n${script}`],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    children.push(proc);
    // Every line kept until asked for (a line printed while nobody listens would be lost).
    const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
    const next = async () => String((await lines.next()).value);
    expect(await next()).toBe("ready");
    const ledger = new SharedLedger(shared, "t0ken");
    proc.stdin!.end();
    const mine = (await Promise.all(ids.map(async (id) => ((await ledger.claim(id)) ? id : "")))).filter(Boolean);
    const theirs = JSON.parse(await next()) as string[];
    expect([...mine, ...theirs].sort()).toEqual([...ids].sort());
  });

  it("an entry whose pid now names a later process (the pid reused) holds no check", async () => {
    const ledger = new SharedLedger(shared, "t0ken");
    // Registers the file, then an entry is written as a process that started at another time
    // would have left it under the pid of a process that runs now (this test's parent).
    await ledger.claim(randomUUID());
    const file = readdirSync(shared.machine.dir).find((f) => f.startsWith("ledger-"))!;
    const state = JSON.parse(readFileSync(path.join(shared.machine.dir, file), "utf8")) as Record<string, unknown>;
    const stale = { pid: process.ppid, started: "1", owner: "gone", kind: "agents" };
    writeFileSync(path.join(shared.machine.dir, file), JSON.stringify({ ...state, inFlight: [stale] }));
    let waited = false;
    const checked = await ledger.check(
      "agents",
      () => true,
      async () => "checked",
      () => {
        waited = true;
      },
    );
    expect([checked, waited]).toEqual(["checked", false]);
  });

  it("a create held by another process's check gives up at the operation's deadline, saying nothing was sent", async () => {
    const [checking, sending] = [new SharedLedger(shared, "t0ken"), new SharedLedger(shared, "t0ken")];
    const { opened: checkStarted, open: inCheck } = gate();
    let endCheck = () => {};
    const check = checking.check(
      "agents",
      () => true,
      () => {
        inCheck();
        return new Promise<void>((resolve) => (endCheck = resolve));
      },
    );
    await checkStarted;
    // A clock past the deadline once the create has found the kind held.
    let now = 0;
    const sent: string[] = [];
    const refused = await sending
      .send("agents", {}, async () => void sent.push("sent"), { at: 1, now: () => now++ })
      .catch((e: unknown) => e);
    expect(String(refused)).toMatch(/at the operation's deadline; nothing was sent/);
    expect(sent).toEqual([]);
    endCheck();
    await check;
  });

  it("an entry whose removal met a held lock after its deadline ends with its operation: no later check waits for it", async () => {
    let clock = 0;
    const now = () => clock;
    const [sending, checking] = [new SharedLedger(shared, "t0ken", now), new SharedLedger(shared, "t0ken", now)];
    const { opened: registered, open: inFlight } = gate();
    const { opened: answered, open: answer } = gate();
    const send = sending.send(
      "agents",
      {},
      async () => {
        inFlight();
        await answered;
        return "made";
      },
      { at: 100, now },
    );
    await registered;
    // Another process holds the ledger's lock while the create answers past its operation's deadline.
    const file = path.join(
      shared.machine.dir,
      readdirSync(shared.machine.dir).find((f) => /^ledger-.*\.json$/.test(f))!,
    );
    const release = await lockFile(file, { realpath: false, retries: 0 });
    clock = 200;
    answer();
    await expect(send).rejects.toThrow(/still held by another provider process/);
    await release();
    // The entry was never removed; its operation is over, so it holds no check.
    let waited = false;
    const checked = await checking.check(
      "agents",
      () => true,
      async () => "checked",
      () => {
        waited = true;
        clock = 10_000;
      },
      { at: 1_000, now },
    );
    expect([checked, waited]).toEqual(["checked", false]);
  });

  it("a create whose turn under a rate limit comes after its deadline on the wall clock still holds the other processes' checks", async () => {
    // Simulated: the wall clock, the time its operation waited for turns (not charged to its
    // deadline, client/reconcile.ts), and the renewals of its entry (each `tick` a gate the test opens).
    let clock = 0;
    let paced = 0;
    const now = () => clock;
    const ticks: Array<() => void> = [];
    let ticked = () => {};
    const tick = () =>
      new Promise<void>((resolve) => {
        ticks.push(resolve);
        ticked();
      });
    const nextTick = () => new Promise<void>((resolve) => (ticked = resolve));
    const [sending, checking] = [new SharedLedger(shared, "t0ken", now, tick), new SharedLedger(shared, "t0ken", now)];
    const { opened: registered, open: inFlight } = gate();
    const { opened: answered, open: answer } = gate();
    const send = sending.send(
      "agents",
      {},
      async () => {
        inFlight();
        await answered;
        return "made";
      },
      { at: 100, now: () => clock - paced },
    );
    await registered;
    // Ten wall-clock deadlines later, all spent waiting for its turn, renewed every half deadline:
    // the create is still in flight.
    for (let step = 0; step < 20; step++) {
      clock += 50;
      paced += 50;
      // A ledger that renews nothing asks for no tick: the clock then only moves on.
      const release = ticks.shift();
      if (!release) continue;
      const renewed = nextTick();
      release();
      await renewed;
    }
    let waited = false;
    const checked = checking.check(
      "agents",
      () => true,
      async () => "checked",
      () => {
        waited = true;
        answer();
      },
      { at: 10_000, now },
    );
    expect([await checked, waited]).toEqual(["checked", true]);
    answer();
    expect(await send).toBe("made");
  });

  it("a process killed with a create in flight does not hold the deployment's checks", async () => {
    // The child registers a create of agents and never answers it, then is killed.
    const code =
      joinInChild() +
      `new (kit("shared-ledger").SharedLedger)(shared, "t0ken").send("agents", {}, () => { console.log("in flight"); ` +
      `return new Promise(() => {}); });` +
      // Alive until killed (a pending promise alone would let it exit).
      "setInterval(() => {}, 60000);";
    expect(await child(code)).toBe("in flight");
    const ledger = new SharedLedger(shared, "t0ken");
    let waited = false;
    const checked = ledger.check(
      "agents",
      () => true,
      async () => "checked",
      () => {
        waited = true;
        children[0]!.kill("SIGKILL");
      },
    );
    expect(await checked).toBe("checked");
    expect(waited).toBe(true);
  });
});
