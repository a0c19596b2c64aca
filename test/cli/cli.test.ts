// The `voiceagent` command in-process against the emulator: exit codes, bad input, the token never shown.
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { AuditReportSchema } from "../../provider/cli/audit.js";
import { PullPlanSchema } from "../../provider/cli/plan.js";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.js";
import { exportOf } from "./fake-state.js";
import { cliInProcess, cliProcess, type CliRun } from "./run-cli.js";

const TOKEN = `cli-unit-${randomUUID()}`;
let emu: RunningEmulator;
let client: VoiceAgentClient;
let html: RecordingServer;
let tmp: string;
const runs: CliRun[] = [];

/** Runs with the emulator's address and token; every run is kept to check for the token at the end. */
async function va(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const r = await cliInProcess(args, { VOICEAGENT_BASE_URL: emu.url, VOICEAGENT_TOKEN: TOKEN, ...env }, tmp);
  runs.push(r);
  return r;
}
/** Says the service was left as it was (every command here only reads it), in any words. */
const UNCHANGED = /nothing (was )?changed|(changed|wrote|modified) nothing|not (been )?changed/i;
/** Says no file was written. */
const NOT_WRITTEN = /nothing (was )?written|wrote nothing|not written/i;
/** A one-line error (exit 1) whose line carries every fact in `facts`: what it names and what it says. */
const oneLineError = (r: CliRun, ...facts: RegExp[]) => {
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  for (const fact of facts) expect(r.stderr).toMatch(fact);
};
const literally = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], seed: true });
  client = createClient({ baseUrl: emu.url, token: TOKEN });
  html = await startRecordingServer((req) =>
    req.path.endsWith("/agents/list")
      ? { status: 404, text: "<h1>Not Found</h1>", headers: { "content-type": "text/html" } }
      : { text: "<html>a login page</html>", headers: { "content-type": "text/html" } },
  );
  tmp = path.join(os.tmpdir(), `voiceagent-cli-${randomUUID().slice(0, 8)}`);
  mkdirSync(tmp);
});
afterAll(async () => {
  await emu?.close();
  await html?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("voiceagent", () => {
  it("--help works on every command, with exit codes and where the token comes from", async () => {
    const top = await va(["--help"]);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/pull[\s\S]*audit[\s\S]*drift/);
    for (const cmd of ["pull", "audit", "drift"]) {
      const r = await va([cmd, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: voiceagent ${cmd}`));
      // The exit codes a pipeline branches on are documented: 0, 1, and 3 (found something) where it can happen.
      const codes = r.stdout.split(/exit codes?\b/i)[1] ?? "";
      for (const code of cmd === "pull" ? ["0", "1"] : ["0", "1", "3"])
        expect(codes).toMatch(new RegExp(`\\b${code}\\b`));
    }
    expect((await va(["audit", "--help"])).stdout).toMatch(/VOICEAGENT_TOKEN/);
  });

  it("pull --json prints the plan of the seeded account and writes nothing", async () => {
    const r = await va(["pull", "--json"]);
    expect(r.code).toBe(0);
    const plan = PullPlanSchema.parse(JSON.parse(r.stdout));
    expect(plan.resources.map((x) => x.kind).sort()).toEqual(["Action", "Voice", "Voice", "Voice", "Webhook"]);
    // Each of the 4 seeded numbers is skipped because no agent answers it.
    expect(plan.skipped).toHaveLength(4);
    for (const s of plan.skipped) expect(s.reason).toMatch(/not bound|unbound|no (agent|binding)/i);
    // One line on stderr counting what was read and the requests it took.
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/\b9 objects\b/);
    expect(r.stderr).toMatch(/\b5 requests\b/);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("pull writes a project, refuses to overwrite it without --force, and overwrites it with --force", async () => {
    const first = await va(["pull", "--out", "proj", "--only", "voices"]);
    expect(first.code).toBe(0);
    const dir = path.join(tmp, "proj");
    expect(readdirSync(dir).sort()).toEqual([".gitignore", "Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"]);
    const before = readFileSync(path.join(dir, "index.ts"), "utf8");
    expect(before.match(/new va\.Voice\(/g)).toHaveLength(3);

    await client.voices.create({ voice_name: "added-later", pitch: 0, rate: 1 });
    oneLineError(
      await va(["pull", "--out", "proj", "--only", "voices"]),
      /--out\b/,
      /\bproj\b/,
      /--force/,
      NOT_WRITTEN,
    );
    expect(readFileSync(path.join(dir, "index.ts"), "utf8")).toBe(before);

    expect((await va(["pull", "--out", "proj", "--only", "voices", "--force"])).code).toBe(0);
    expect(readFileSync(path.join(dir, "index.ts"), "utf8")).toMatch(/"added-later"/);
  });

  it("an --out that is a file is refused before any request", async () => {
    writeFileSync(path.join(tmp, "a-file"), "x");
    const requests = emu.stats.total;
    oneLineError(await va(["pull", "--out", "a-file"]), /--out\b/, /a-file/, /not a (folder|directory)/i, NOT_WRITTEN);
    expect(emu.stats.total).toBe(requests);
  });

  it.each([
    // Names the service's address and the refusal (401), says which setting to fix, and that nothing changed.
    [
      "a token without access",
      { VOICEAGENT_TOKEN: "not-a-token-of-this-service" },
      [/http:\/\/127\.0\.0\.1:\d+/, /\b401\b/, /VOICEAGENT_TOKEN/, UNCHANGED],
    ],
    ["no token", { VOICEAGENT_TOKEN: "" }, [/\btoken\b/, /VOICEAGENT_TOKEN/, UNCHANGED]],
    // Names the value given, the setting it came from, and what is accepted.
    [
      "a base URL that is not a URL",
      { VOICEAGENT_BASE_URL: "ftp://example.com" },
      [/ftp:\/\/example\.com/, /VOICEAGENT_BASE_URL/, /https?\b/, UNCHANGED],
    ],
    // Names the address and the cause, and the setting to check.
    [
      "a service that is not running",
      { VOICEAGENT_BASE_URL: "http://127.0.0.1:9" },
      [/http:\/\/127\.0\.0\.1:9\b/, /ECONNREFUSED/, /VOICEAGENT_BASE_URL/, UNCHANGED],
    ],
  ])("pull with %s: one line, exit 1, nothing written", async (_what, env, facts) => {
    oneLineError(await va(["pull", "--out", "never"], env), ...facts);
    expect(existsSync(path.join(tmp, "never"))).toBe(false);
  });

  it("pull against a base URL that is not the service: one line naming the base URL", async () => {
    const r = await va(["pull", "--out", "never", "--base-url", html.url]);
    oneLineError(r, literally(html.url), /--base-url/, /VOICEAGENT_BASE_URL/, UNCHANGED);
    expect(existsSync(path.join(tmp, "never"))).toBe(false);
  });

  it("bad flags are one line and exit 1", async () => {
    // Names the flag and the bad value, and lists what is accepted.
    oneLineError(
      await va(["pull", "--only", "agents,robots"]),
      /--only/,
      /robots/,
      /voices.*actions.*webhooks.*agents.*numbers/,
    );
    // Names the flags that would make the command complete.
    oneLineError(await va(["audit"]), /--stack/, /--state/);
    oneLineError(await va(["drift"]), /--stack/);
  });

  it("audit --state: a file that is not an export, or missing, fails before any request", async () => {
    writeFileSync(path.join(tmp, "package.json"), JSON.stringify({ name: "x", version: "1.0.0" }));
    const requests = emu.stats.total;
    // Names the file and what it should be, with the command that writes one.
    oneLineError(await va(["audit", "--state", "package.json"]), /--state/, /package\.json/, /pulumi stack export/);
    oneLineError(await va(["audit", "--state", "missing.json"]), /--state/, /missing\.json/, /ENOENT/);
    expect(emu.stats.total).toBe(requests);
  });

  it("audit --state: exit 0 when the state manages the account, 3 with a planted agent, JSON for machines", async () => {
    const seed = emu.seeds.get(TOKEN)!;
    const voices = (await client.voices.list.all()).map((v, i) => ({ kind: "Voice", id: v.id, name: `v${i}` }));
    const state = exportOf([
      ...voices,
      { kind: "Action", id: seed.actions[0]!, name: "a" },
      { kind: "Webhook", id: seed.webhooks[0]!, name: "w" },
    ]);
    writeFileSync(path.join(tmp, "state.json"), state);
    const clean = await va(["audit", "--state", "state.json"]);
    expect(clean).toMatchObject({ code: 0, stdout: expect.stringMatching(/^clean: /) });

    const stray = await client.agents.create({ prompt: "You are made by hand.", voice: seed.voices[0]! });
    await client.numbers.update(seed.numbers[0]!, stray.id);
    const found = await va(["audit", "--state", "state.json", "--json"]);
    expect(found.code).toBe(3);
    const report = AuditReportSchema.parse(JSON.parse(found.stdout));
    expect(report.findings.map((f) => [f.finding, f.id])).toEqual([
      ["unmanaged", stray.id],
      ["bound-to-unmanaged-agent", (await client.numbers.get(seed.numbers[0]!)).id],
    ]);
    const human = await va(["audit", "--state", "state.json", "--only", "agents"]);
    expect(human.code).toBe(3);
    // A table whose row names the finding, the kind, the id and a name for the object.
    const row = human.stdout.split("\n").find((l) => l.includes(stray.id));
    expect(row).toMatch(/\bunmanaged\b/);
    expect(row).toMatch(/\bagent\b/i);
    expect(row).toContain("made-by-hand");
  });

  it(`audit on a list it cannot read whole: the item it cannot read is reported, and a managed object it does not see is unknown, never \
missing`, async () => {
    const seed = emu.seeds.get(TOKEN)!;
    const odd = await client.agents.create({
      prompt: "Listed with a field of the wrong type.",
      voice: seed.voices[0]!,
    });
    const elsewhere = randomUUID();
    writeFileSync(path.join(tmp, "unread.json"), exportOf([{ kind: "Agent", id: elsewhere, name: "support" }]));
    const audited = async () => {
      const r = await va(["audit", "--state", "unread.json", "--only", "agents", "--json"]);
      expect(r.code).toBe(3);
      const report = AuditReportSchema.parse(JSON.parse(r.stdout));
      return (id: string) => report.findings.filter((f) => f.id === id).map((f) => f.finding);
    };
    try {
      // An item whose id can be read, though nothing else of it can: it is not the managed agent.
      emu.faults.add({
        phase: "after",
        route: "/v1/agents/list",
        items: { where: { id: odd.id }, set: { user_id: 42 } },
      });
      let of = await audited();
      expect(of(odd.id)).toEqual(["unreadable"]);
      expect(of(elsewhere)).toEqual(["missing"]);
      // A snapshot keeps the id of an item it could not read: recover must never take that object for new.
      expect((await va(["snapshot", "--out", "before.json"])).code).toBe(0);
      expect(JSON.parse(readFileSync(path.join(tmp, "before.json"), "utf8")).ids).toContain(odd.id);
      // pull says what it could not read, rather than leaving it out unsaid.
      const pulled = await va(["pull", "--json", "--only", "agents"]);
      expect(pulled.stderr).toContain(`not declared: agent ${odd.id}: the service lists it, but it could not be read`);

      // An item without a readable id could be the managed agent: whether it exists is unknown.
      emu.faults.clear();
      emu.faults.add({ phase: "after", route: "/v1/agents/list", items: { where: { id: odd.id }, set: { id: 7 } } });
      of = await audited();
      expect(of(elsewhere)).toEqual(["unknown"]);
      const human = await va(["audit", "--state", "unread.json", "--only", "agents"]);
      const row = human.stdout.split("\n").find((l) => l.includes(elsewhere));
      expect(row).toMatch(/\bunknown\b/);
      expect(row).not.toMatch(/gone from the account/);
      // And a snapshot that would leave an object out is refused, naming why.
      const snap = await va(["snapshot", "--out", "hole.json"]);
      oneLineError(snap, /could not be listed whole/, /without an id/, NOT_WRITTEN);
      expect(existsSync(path.join(tmp, "hole.json"))).toBe(false);
    } finally {
      emu.faults.clear();
    }
  });

  it("the token is never printed, whatever happened", () => {
    expect(runs.length).toBeGreaterThan(10);
    for (const r of runs) expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it("the built bin runs as users run it: exit codes reach the shell", async () => {
    const env = { VOICEAGENT_BASE_URL: emu.url, VOICEAGENT_TOKEN: TOKEN };
    expect((await cliProcess(["audit", "--state", path.join(tmp, "state.json"), "--only", "voices"], env)).code).toBe(
      0,
    );
    expect((await cliProcess(["audit", "--state", path.join(tmp, "state.json")], env)).code).toBe(3);
    const bad = await cliProcess(["audit", "--state", path.join(tmp, "state.json")], {
      ...env,
      VOICEAGENT_TOKEN: "wrong-token",
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^voiceagent\b/);
    expect(bad.stderr).toMatch(/\btoken\b/);
    expect(bad.stderr).toMatch(/\b401\b/);
    // A failure with --json is JSON too: the service's code and whether it may have acted, for a
    // pipeline to branch on without reading prose; the stderr line says the same in words.
    emu.faults.add({ route: "/v1/agents/list", status: 403 });
    try {
      const failed = await cliProcess(["audit", "--state", path.join(tmp, "state.json"), "--json"], env);
      expect(failed.code).toBe(1);
      const { error } = JSON.parse(failed.stdout) as {
        error: { code: string; mayHaveActed: boolean; message: string };
      };
      expect(error).toMatchObject({ code: "E_AUTH", mayHaveActed: false });
      expect(failed.stderr).toContain(error.message);
      expect(error.message).toMatch(/\b403\b/);
      expect(error.message).toMatch(UNCHANGED);
    } finally {
      emu.faults.clear();
    }
    expect((await cliProcess(["--version"])).stdout.trim()).toBe("0.5.0");
  });
});
