// The account's create ledger shared by every deployment of one machine (coordination/machine.ts,
// coordination/shared-ledger.ts): two stacks of one account deploying at once must never take one
// object. Deployments here are real joins of one root folder, each naming its engine: a child
// process this test kills to end that deployment (or this test's own process). Every ordering is
// forced by a promise or a child's exit, never by a clock.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { joinDeployment, type SharedDeployment } from "../../provider/coordination/deployment.js";
import { SharedLedger } from "../../provider/coordination/shared-ledger.js";
import { REPO_ROOT } from "../helpers/consumer.js";
import { gate } from "../helpers/gate.js";

const KIT = path.join(REPO_ROOT, "provider/dist/coordination");
const TOKEN = "machine-claims-token";
const KEY = '{"prompt":"You are one of many identical desks."}';
let root: string;
const children: ChildProcess[] = [];
const joined: SharedDeployment[] = [];
const address = () => `127.0.0.1:${40000 + Math.floor(Math.random() * 20000)}`;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "va-machine-"));
});
afterEach(() => {
  for (const d of joined.splice(0)) d.leave();
  for (const c of children.splice(0)) c.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

/** An engine that runs until `end`: a child process that only waits. */
async function engine(): Promise<{ pid: number; end: () => Promise<void> }> {
  const proc = spawn(process.execPath, ["-e", 'console.log("up"); setInterval(() => {}, 60000);'], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(proc);
  await new Promise<void>((resolve) => proc.stdout!.once("data", () => resolve()));
  return {
    pid: proc.pid!,
    end: () =>
      new Promise<void>((resolve) => {
        proc.once("exit", () => resolve());
        proc.kill("SIGKILL");
      }),
  };
}

/** Joins a deployment of the engine `enginePid` under the test's root, as a plugin of it does. */
function deployment(enginePid: number): SharedDeployment {
  const d = joinDeployment(address(), { root, enginePid });
  joined.push(d);
  return d;
}

/** Runs `code` in a provider process of the deployment of `enginePid` (a child joined to it); resolves when it exits. */
function inProcessOf(enginePid: number, code: string): Promise<void> {
  const script =
    `const d = require(${JSON.stringify(`${KIT}/deployment.js`)}).joinDeployment(${JSON.stringify(address())}, ` +
    `{ root: ${JSON.stringify(root)}, enginePid: ${enginePid} }); d.leave();` +
    `const ledger = new (require(${JSON.stringify(`${KIT}/shared-ledger.js`)}).SharedLedger)(d, ${JSON.stringify(TOKEN)});` +
    `(async () => { ${code} })().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`;
  const proc = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "inherit", "inherit"] });
  children.push(proc);
  return new Promise((resolve, reject) =>
    proc.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the provider process exited ${code}`)))),
  );
}

const ledgerFiles = (d: SharedDeployment) =>
  readdirSync(d.machine.dir).filter((f) => /^ledger-[0-9a-f]+\.json$/.test(f));

describe("claims shared by every deployment of one machine", () => {
  it("two deployments of one user share one machine folder, each in a folder of its own", async () => {
    const a = deployment((await engine()).pid);
    const b = deployment(process.pid);
    expect(a.dir).not.toBe(b.dir);
    expect(a.machine.dir).toBe(b.machine.dir);
    expect(path.dirname(a.machine.dir)).toBe(root);
  });

  it("an id another live deployment claimed is never taken, and its create in flight holds this deployment's check", async () => {
    const a = deployment((await engine()).pid);
    const b = deployment(process.pid);
    const [mine, theirs] = [new SharedLedger(b, TOKEN), new SharedLedger(a, TOKEN)];
    // Deployment A's create answered with x and claimed it.
    expect(await theirs.claim("x")).toBe(true);
    // B's identical create lost its reply; its check sees x, new since its snapshot: not its own.
    await mine.unsettle("agents", KEY, 1);
    expect(await mine.pick("agents", KEY, ["x"])).toEqual({ none: true });
    await mine.unsettle("agents", KEY, -1);

    // A's next create is in flight (sent, no answer yet): B's check waits until it has answered.
    let answer = () => {};
    const { opened: sending, open: inFlight } = gate();
    const sent = theirs.send("agents", {}, () => {
      inFlight();
      return new Promise<string>((resolve) => (answer = () => resolve("y")));
    });
    await sending;
    const order: string[] = [];
    const checked = mine.check(
      "agents",
      () => true,
      async () => void order.push("listed"),
      () => {
        order.push("waiting");
        order.push("answered");
        answer();
      },
    );
    await Promise.all([sent, checked]);
    expect(order).toEqual(["waiting", "answered", "listed"]);
  });

  it(`a claim outlives the process that made it while its engine runs; once the engine ends it is still held while a \
deployment that was running then runs, and free once none does; the emptied ledger is then removed`, async () => {
    const [engineA, engineB] = [await engine(), await engine()];
    const a = deployment(engineA.pid);
    const b = deployment(engineB.pid);
    // A provider process of deployment A claims x and exits (the engine has not recorded x yet).
    await inProcessOf(engineA.pid, 'if (!(await ledger.claim("x"))) throw new Error("x taken");');
    const mine = new SharedLedger(b, TOKEN);
    await mine.unsettle("agents", KEY, 1);
    expect(await mine.pick("agents", KEY, ["x"])).toEqual({ none: true });
    // A's engine ends (its state now holds x): B read its list before x existed, so x stays held for B.
    await engineA.end();
    expect(await mine.pick("agents", KEY, ["x"])).toEqual({ none: true });
    await mine.unsettle("agents", KEY, -1);
    expect(ledgerFiles(a)).toHaveLength(1);
    // B ends too. A deployment started afterwards read its lists after x existed: nothing to hold,
    // and its first ledger tidies the machine's folder of the ledger nobody running can need.
    await engineB.end();
    const c = deployment(process.pid);
    const later = new SharedLedger(c, TOKEN);
    await later.tidying;
    expect(ledgerFiles(c)).toEqual([]);
    await later.unsettle("agents", KEY, 1);
    expect(await later.pick("agents", KEY, ["x"])).toEqual({ id: "x" });
  });

  it("a process of a deployment killed mid-create holds no other deployment's check (its entry goes with it)", async () => {
    const engineA = await engine();
    deployment(engineA.pid);
    const b = deployment(process.pid);
    // A provider process of A registers a create in flight and is killed before it answers.
    const script =
      `const d = require(${JSON.stringify(`${KIT}/deployment.js`)}).joinDeployment(${JSON.stringify(address())}, ` +
      `{ root: ${JSON.stringify(root)}, enginePid: ${engineA.pid} }); d.leave();` +
      `new (require(${JSON.stringify(`${KIT}/shared-ledger.js`)}).SharedLedger)(d, ${JSON.stringify(TOKEN)})` +
      `.send("agents", {}, () => { console.log("in flight"); return new Promise(() => {}); });` +
      "setInterval(() => {}, 60000);";
    const proc = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(proc);
    await new Promise<void>((resolve) => proc.stdout!.once("data", () => resolve()));
    let waited = false;
    const checked = new SharedLedger(b, TOKEN).check(
      "agents",
      () => true,
      async () => "checked",
      () => {
        waited = true;
        proc.kill("SIGKILL");
      },
    );
    expect(await checked).toBe("checked");
    expect(waited).toBe(true);
  });

  it("a clock stepped back or forward changes no claim: claims live by their engine, not by a time", async () => {
    const a = deployment((await engine()).pid);
    const b = deployment(process.pid);
    const [mine, theirs] = [new SharedLedger(b, TOKEN), new SharedLedger(a, TOKEN)];
    expect(await theirs.claim("x")).toBe(true);
    await mine.unsettle("agents", KEY, 1);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 365 * 86_400_000 });
    try {
      expect(await mine.pick("agents", KEY, ["x"])).toEqual({ none: true });
      vi.setSystemTime(Date.now() - 2 * 365 * 86_400_000);
      expect(await mine.pick("agents", KEY, ["x"])).toEqual({ none: true });
    } finally {
      vi.useRealTimers();
    }
  });

  it("nothing secret is written in the machine's folder: tokens and bodies appear only as salted hashes", async () => {
    const b = deployment(process.pid);
    const ledger = new SharedLedger(b, TOKEN);
    await ledger.unsettle("agents", KEY, 1);
    expect(readdirSync(b.machine.dir).join("\n")).not.toContain(TOKEN);
    const contents = ledgerFiles(b)
      .map((f) => readFileSync(path.join(b.machine.dir, f), "utf8"))
      .join("");
    expect(contents).toContain("agents");
    expect(contents).not.toContain(TOKEN);
    expect(contents).not.toContain("identical desks");
    await ledger.unsettle("agents", KEY, -1);
  });
});
