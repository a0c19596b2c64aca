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
const oneLineError = (r: CliRun, message: RegExp) => {
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(r.stderr).toMatch(message);
};

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
      expect(r.stdout).toMatch(/Exit codes: 0 clean/);
    }
    expect((await va(["audit", "--help"])).stdout).toMatch(/VOICEAGENT_TOKEN/);
  });

  it("pull --json prints the plan of the seeded account and writes nothing", async () => {
    const r = await va(["pull", "--json"]);
    expect(r.code).toBe(0);
    const plan = PullPlanSchema.parse(JSON.parse(r.stdout));
    expect(plan.resources.map((x) => x.kind).sort()).toEqual(["Action", "Voice", "Voice", "Voice", "Webhook"]);
    expect(plan.skipped.map((s) => s.reason)).toEqual(Array(4).fill("not bound to an agent: there is no binding to declare"));
    expect(r.stderr).toMatch(/^read 9 objects in \d+\.\d s \(5 requests\)\n$/);
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
      /--out .*proj exists and is not empty: choose another --out, or pass --force.*nothing was written/,
    );
    expect(readFileSync(path.join(dir, "index.ts"), "utf8")).toBe(before);

    expect((await va(["pull", "--out", "proj", "--only", "voices", "--force"])).code).toBe(0);
    expect(readFileSync(path.join(dir, "index.ts"), "utf8")).toMatch(/"added-later"/);
  });

  it("an --out that is a file is refused before any request", async () => {
    writeFileSync(path.join(tmp, "a-file"), "x");
    const requests = emu.stats.total;
    oneLineError(await va(["pull", "--out", "a-file"]), /--out .*a-file is a file, not a folder/);
    expect(emu.stats.total).toBe(requests);
  });

  it.each([
    [
      "a token without access",
      { VOICEAGENT_TOKEN: "not-a-token-of-this-service" },
      /the token was refused by http:\/\/127\.0\.0\.1:\d+ \(401 on GET \/v1\/\w+\/list\?page=1&size=100\): check VOICEAGENT_TOKEN; nothing was changed/,
    ],
    ["no token", { VOICEAGENT_TOKEN: "" }, /no token: set VOICEAGENT_TOKEN; nothing was changed on the service\n$/],
    [
      "a base URL that is not a URL",
      { VOICEAGENT_BASE_URL: "ftp://example.com" },
      /must be an http\(s\) URL such as https:\/\/api\.example\.com, not "ftp:\/\/example\.com"/,
    ],
    [
      "a service that is not running",
      { VOICEAGENT_BASE_URL: "http://127.0.0.1:9" },
      /could not reach http:\/\/127\.0\.0\.1:9 \(.*ECONNREFUSED.*\): is the service running/,
    ],
  ])("pull with %s: one line, exit 1, nothing written", async (_what, env, message) => {
    oneLineError(await va(["pull", "--out", "never"], env), message);
    expect(existsSync(path.join(tmp, "never"))).toBe(false);
  });

  it("pull against a base URL that is not the service: one line naming the base URL", async () => {
    const r = await va(["pull", "--out", "never", "--base-url", html.url]);
    oneLineError(
      r,
      new RegExp(
        `(did not answer like the voice agent service|does not exist on ${html.url}).*is --base-url \\(or VOICEAGENT_BASE_URL\\) the service's address`,
      ),
    );
    expect(existsSync(path.join(tmp, "never"))).toBe(false);
  });

  it("bad flags are one line and exit 1", async () => {
    oneLineError(
      await va(["pull", "--only", "agents,robots"]),
      /--only: unknown kind "robots"; use voices, actions, webhooks, agents, numbers/,
    );
    oneLineError(await va(["audit"]), /name at least one stack \(--stack NAME\) or exported state \(--state FILE\)/);
    oneLineError(await va(["drift"]), /required option '--stack <name>' not specified/);
  });

  it("audit --state: a file that is not an export, or missing, fails before any request", async () => {
    writeFileSync(path.join(tmp, "package.json"), JSON.stringify({ name: "x", version: "1.0.0" }));
    const requests = emu.stats.total;
    oneLineError(
      await va(["audit", "--state", "package.json"]),
      /--state package\.json is not a Pulumi stack export \(version: .*\): write one with `pulumi stack export --file <file>`/,
    );
    oneLineError(await va(["audit", "--state", "missing.json"]), /--state missing\.json cannot be read \(ENOENT\)/);
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
    expect(human.stdout).toMatch(/^FINDING .*\nunmanaged\s+agent\s+[0-9a-f-]{36}\s+made-by-hand\s+no given stack manages this agent/);
  });

  it("the token is never printed, whatever happened", () => {
    expect(runs.length).toBeGreaterThan(10);
    for (const r of runs) expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it("the built bin runs as users run it: exit codes reach the shell", async () => {
    const env = { VOICEAGENT_BASE_URL: emu.url, VOICEAGENT_TOKEN: TOKEN };
    expect((await cliProcess(["audit", "--state", path.join(tmp, "state.json"), "--only", "voices"], env)).code).toBe(0);
    expect((await cliProcess(["audit", "--state", path.join(tmp, "state.json")], env)).code).toBe(3);
    const bad = await cliProcess(["audit", "--state", path.join(tmp, "state.json")], { ...env, VOICEAGENT_TOKEN: "wrong-token" });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^voiceagent: error: the token was refused/);
    expect((await cliProcess(["--version"])).stdout.trim()).toBe("0.2.0");
  });
});
