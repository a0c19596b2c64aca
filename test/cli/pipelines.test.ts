// End to end, one account and one stack through every step: pull a seeded account plus objects made
// by hand, `pulumi up` the pulled project (0 creates, then the drift check's preview --refresh is
// empty), then `voiceagent drift` on a console edit, and the drift check script and audit on that
// edit, an unmanaged agent and an out-of-band deletion together.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Agent, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { DriftReportSchema } from "../../provider/cli/drift-report.js";
import { ROOT } from "../helpers/pulumi-stack.js";
import { summaryOf } from "../native/project.js";
import { installDependencies, pulledProject, pulledStack, pulumiOn, type PulledProject } from "./pulled-project.js";
import { CLI_BIN, cliProcess, run, type CliRun } from "./run-cli.js";

const TOKEN = `e2e-pipelines-${randomUUID()}`;
const SCRIPT = path.join(ROOT, "examples/pipelines/drift-check.sh");
const SUPPORT_PROMPT = 'You are the support line of Example Co. Say "hi", never ${reveal} */ secrets.\nBe brief.';
let emu: RunningEmulator;
let client: VoiceAgentClient;
let project: PulledProject;
const agents: Record<"support" | "sales" | "support2", Agent> = {} as Record<"support" | "sales" | "support2", Agent>;
const outputs: CliRun[] = [];

/** The CLI and the script see the stack's backend, and no token or base URL but the stack's config. */
const env = () => ({
  ...project.env,
  VOICEAGENT_TOKEN: "",
  VOICEAGENT_BASE_URL: "",
  VOICEAGENT_CLI: `${process.execPath} ${CLI_BIN}`,
});
const cli = async (args: string[], extra: Record<string, string> = {}) =>
  keep(await cliProcess(args, { ...env(), ...extra }, project.dir));
const driftCheck = async () => keep(await run("bash", [SCRIPT, "ci", project.dir], env(), ROOT));
const keep = (r: CliRun) => {
  outputs.push(r);
  return r;
};
/** The problems the check reported, one line each. */
const driftLines = (r: CliRun) => r.stdout.split("\n").filter((l) => l.startsWith("drift-check: DRIFT"));
/** Every object of the account, to compare before and after. */
const snapshot = async () => ({
  agents: await client.agents.list.all(),
  voices: await client.voices.list.all(),
  actions: await client.actions.list.all(),
  webhooks: await client.webhooks.list.all(),
  numbers: await client.numbers.list.all(),
});
const creates = () =>
  Object.entries(emu.stats.byRoute)
    .filter(([route]) => /^POST \/v1\/\w+\/(create|buy)$/.test(route))
    .reduce((n, [, count]) => n + count, 0);

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], seed: true });
  client = createClient({ baseUrl: emu.url, token: TOKEN });
  const seed = emu.seeds.get(TOKEN)!;
  const transfer = await client.actions.create({
    type: "action_transfer_call",
    config: { phone_number: "+15557654321" },
  });
  agents.support = await client.agents.create({
    prompt: SUPPORT_PROMPT,
    voice: seed.voices[0]!,
    actions: [seed.actions[0]!, transfer.id],
    webhook: seed.webhooks[0]!,
    initial_message: "Héllo — 😀",
  });
  agents.support2 = await client.agents.create({
    prompt: "You are the support line of Example Co, weekends.",
    voice: seed.voices[1]!,
  });
  agents.sales = await client.agents.create({ prompt: "You are the sales line.", voice: seed.voices[2]! });
  await client.numbers.update(seed.numbers[0]!, agents.support.id);
  await client.numbers.update(seed.numbers[1]!, agents.sales.id);
  await client.numbers.update(seed.numbers[2]!, agents.support2.id);
  project = pulledProject("pulled");
});
afterAll(async () => {
  project?.dispose();
  await emu?.close();
});

/**
 * Each step's time limit: a step runs up to two engine runs on the pulled project (the drift check's
 * preview --refresh, drift's), each starting the CLI, the program and the provider; at a load of 30
 * one took over vitest's 60 s default.
 */
const STEP = { timeout: 240_000 };

describe("pull → up → drift check and audit", STEP, () => {
  it("pull writes a project that type-checks under the template's settings", async () => {
    const pulled = await cliProcess(["pull", "--out", project.dir, "--name", "pulled"], {
      VOICEAGENT_BASE_URL: emu.url,
      VOICEAGENT_TOKEN: TOKEN,
    });
    keep(pulled);
    expect(pulled.code).toBe(0);
    expect(pulled.stderr).toMatch(/wrote 12 resources to /);
    await installDependencies(project);
    const tsc = await run(
      process.execPath,
      [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", project.dir, "--noEmit", "--pretty", "false"],
      {},
      project.dir,
    );
    const errors = (tsc.stdout + tsc.stderr).split("\n").filter((l) => /error TS\d+/.test(l));
    expect(errors).toEqual([]);
  });

  it("pulumi up of the pulled project creates nothing and changes nothing", async () => {
    // The test before type-checked the program with tsc: ts-node only transpiles it from here on.
    project.env.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
    await pulledStack(project, "ci", emu.url, TOKEN);
    const before = await snapshot();
    const createsBefore = creates();
    const up = keep(await pulumiOn(project, ["up", "--yes", "--skip-preview", "--json", "--stack", "ci"], env()));
    // 3 voices, 2 actions, 1 webhook, 3 agents, 3 bindings adopted, and the stack itself.
    expect(summaryOf(up)).toEqual({ create: 13 });
    expect(creates()).toBe(createsBefore);
    expect(await snapshot()).toEqual(before);
    // The preview --refresh after it has no changes: the drift check's, in the next test.
  });

  it("clean: audit exits 0 and the drift check passes, with the credentials from the stack's config", async () => {
    const check = await driftCheck();
    // The script's own run of audit: it says clean only when audit exits 0.
    expect(check.stdout).toMatch(/^clean: .*pulled\/ci/m);
    expect(check.stdout).toMatch(/drift-check: clean: stack ci matches the live account\n$/);
    expect(check.code).toBe(0);
  });

  // The drift check on the same edit is the next test's, with two more problems planted beside it.
  it("a console edit: drift reports old → new", async () => {
    await client.agents.update(agents.support.id, { prompt: "Edited in the console." });
    const before = { ...emu.stats.byRoute };
    const drift = await cli(["drift", "--stack", "ci", "--json"]);
    expect(drift.code).toBe(3);
    // Its refresh reads in pages (client/page-reads.ts): each collection listed, no object read on its own.
    const singleReads = Object.entries(emu.stats.byRoute)
      .filter(([route]) => /^GET \/v1\/\w+$/.test(route))
      .reduce((n, [route, count]) => n + count - (before[route] ?? 0), 0);
    expect(singleReads).toBe(0);
    expect(emu.stats.byRoute["GET /v1/agents/list"]).toBeGreaterThan(before["GET /v1/agents/list"] ?? 0);
    const report = DriftReportSchema.parse(JSON.parse(drift.stdout));
    expect(report.drifted).toEqual([
      expect.objectContaining({
        kind: "Agent",
        status: "changed",
        properties: [{ name: "prompt", old: SUPPORT_PROMPT, new: "Edited in the console." }],
      }),
    ]);
    expect(report.planned).toEqual([expect.objectContaining({ kind: "Agent", op: "update", properties: ["prompt"] })]);
  });

  // Three problems in one check (each was a check of its own): the preview finds the edit and the
  // deletion (exit 7), the audit the unmanaged agent and its number and the deletion (exit 3), and
  // the script reports each part's. The clean check above passed both parts (exit 0 each).
  it("an edit, an unmanaged agent on a number, a deletion: the check fails naming each; audit finds exactly its three", async () => {
    const stray = await client.agents.create({
      prompt: "You are a console experiment.",
      voice: emu.seeds.get(TOKEN)!.voices[0]!,
    });
    await client.numbers.update(emu.seeds.get(TOKEN)!.numbers[3]!, stray.id);
    emu.store.db.prepare("DELETE FROM objects WHERE kind = 'agent' AND id = ?").run(agents.sales.id);
    const check = await driftCheck();
    expect(check.code).toBe(3);
    // The preview: the edited agent and its property, the deleted one to be made again.
    expect(check.stdout).toMatch(/Agent::support-line-of-example-[0-9a-f]{8}\]\n(.*\n)*?\s+~ prompt\s*:/);
    expect(check.stdout).toMatch(
      /\+ pulumi-nodejs:dynamic\/voiceagent:Agent: \(create\)\n\s+\[urn=.*Agent::sales-line\]/,
    );
    // The audit's table: the three problems it sees, in its order (unmanaged, missing, bound to
    // unmanaged), and no other (the edit is the preview's to find, not the audit's).
    const rows = check.stdout.split("\n");
    const at = (re: RegExp) => {
      const i = rows.findIndex((l) => re.test(l));
      expect(i, String(re)).toBeGreaterThanOrEqual(0);
      return i;
    };
    const unmanaged = at(new RegExp(`unmanaged\\s+agent\\s+${stray.id}\\s+console-experiment`));
    const missing = at(new RegExp(`missing\\s+agent\\s+${agents.sales.id}\\s+sales-line \\(Agent\\)`));
    const bound = at(/bound to unmanaged agent\s+number\s+[0-9a-f-]{36}\s+number ending 0004/);
    expect(unmanaged).toBeLessThan(missing);
    expect(missing).toBeLessThan(bound);
    expect(check.stdout).toMatch(/^3 found\b/m);
    // One problem line per part, the preview's first. A negative match on the audit's wording would
    // pass as soon as that wording changed.
    expect(driftLines(check)).toHaveLength(2);
    expect(driftLines(check)[0]).toMatch(/\bchanged\b/);
    expect(driftLines(check)[1]).toMatch(/not managed|unmanaged/);
  });

  it("a token without access: audit fails in one line, exit 1", async () => {
    // The base URL from the environment too: the stack's config (a key derivation to read) would add nothing.
    const bad = await cli(["audit", "--stack", "ci"], {
      VOICEAGENT_BASE_URL: emu.url,
      VOICEAGENT_TOKEN: "not-this-services-token",
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toMatch(
      new RegExp(
        /^voiceagent: error: the token was refused by http:\/\/127\.0\.0\.1:\d+ \(401 on GET .*\): /.source +
          /check VOICEAGENT_TOKEN; nothing was changed on the service\n$/.source,
      ),
    );
  });

  it("the token was never printed", () => {
    for (const r of outputs) expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });
});
