// voiceagent recover on the two stacks of examples/environments, which declare the same voice and
// the same action (`action_end_conversation`, config {}). Production is up; staging's first up is
// killed while the service holds its voice and action creates (they are never done), so the only
// objects that match what staging sent are production's. recover must take none of them; with
// another provider's pending create in the checkpoint it must write nothing; and a state that
// changes between its read and its write is never overwritten.
import { randomUUID } from "node:crypto";
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { ok, run } from "../helpers/consumer.js";
import { killPulumiWhen, restoreBackup } from "../helpers/interrupt.js";
import { ROOT } from "../helpers/pulumi-stack.js";
import { CLI_BIN } from "../cli/run-cli.js";

const TOKEN = `e2e-recover-${randomUUID()}`;
const PROJECT = "voiceagent-environments";
const id = randomUUID().slice(0, 8);
const dir = path.join(ROOT, ".pulumi-state", "work", `recover-${id}`);
const stateDir = path.join(ROOT, ".pulumi-state", "backends", `recover-${id}`);
const checkpoint = path.join(stateDir, ".pulumi", "stacks", PROJECT, "staging.json");
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PULUMI_BACKEND_URL: `file://${stateDir}`,
  PULUMI_CONFIG_PASSPHRASE: "voiceagent-test",
  PULUMI_SKIP_UPDATE_CHECK: "true",
  // The example's program is type-checked where it is run as users run it (environments.test.ts);
  // here only its state matters, so ts-node transpiles it.
  PULUMI_NODEJS_TRANSPILE_ONLY: "true",
};
let emu: RunningEmulator;
let client: VoiceAgentClient;

const pulumi = async (args: string[]) =>
  ok(`pulumi ${args.join(" ")}`, await run("pulumi", [...args, "--non-interactive"], { cwd: dir, env }));
const recover = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
  run(process.execPath, [CLI_BIN, "recover", "--stack", "staging", ...args], {
    cwd: dir,
    env: { ...env, ...extraEnv },
  });
interface Exported {
  resources?: { urn: string; id?: string }[];
  pending_operations?: { type: string; resource: { urn: string; type: string } }[];
}
const exported = async (stack: string): Promise<Exported> =>
  (JSON.parse((await pulumi(["stack", "export", "--stack", stack])).stdout) as { deployment: Exported }).deployment;
const pendingNames = (d: Exported) =>
  (d.pending_operations ?? []).map((op) => `${op.type} ${op.resource.urn.split("::").pop()}`).sort();
/** What staging's killed up leaves pending: its voice and action creates. */
const KILLED = ["creating end-call", "creating voice"];
const ids = (d: Exported) => new Set((d.resources ?? []).flatMap((r) => (r.id ? [r.id] : [])));

beforeAll(async () => {
  // No seeded voices or actions: production's are the only objects that match staging's creates.
  emu = await startEmulator({ tokens: [TOKEN] });
  emu.addNumbers(TOKEN, { numbers: ["+15550010003", "+15550010004"] });
  client = createClient({ baseUrl: emu.url, token: TOKEN });
  mkdirSync(dir, { recursive: true });
  mkdirSync(stateDir, { recursive: true });
  for (const f of [
    "index.ts",
    "Pulumi.yaml",
    "Pulumi.staging.yaml",
    "Pulumi.production.yaml",
    "tsconfig.json",
    "package.json",
  ]) {
    cpSync(path.join(ROOT, "examples/environments", f), path.join(dir, f));
  }
  for (const stack of ["production", "staging"]) {
    await pulumi(["stack", "init", stack]);
    await pulumi([
      "config",
      "set-all",
      "--stack",
      stack,
      "--plaintext",
      `voiceagent:baseUrl=${emu.url}`,
      "--secret",
      `voiceagent:token=${TOKEN}`,
    ]);
  }
  await pulumi(["up", "--yes", "--skip-preview", "--stack", "production"]);
}, 300_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(stateDir, { recursive: true, force: true });
  await emu?.close();
});

describe("recover on staging, beside production's identical objects", () => {
  let production: Set<string>;

  it("staging's first up killed while its voice and action creates are held: both pending, neither made", async () => {
    production = ids(await exported("production"));
    const sent = (kind: string) => emu.stats.byRoute[`POST /v1/${kind}/create`] ?? 0;
    const [voices, actions] = [sent("voices"), sent("actions")];
    // Held, then the connection dropped without doing the work: the kill lands while both wait.
    emu.faults.add({ route: "/v1/voices/create", latencyMs: 60_000, reset: true, count: 1 });
    emu.faults.add({ route: "/v1/actions/create", latencyMs: 60_000, reset: true, count: 1 });
    await killPulumiWhen(
      dir,
      env,
      ["up", "--yes", "--skip-preview", "--stack", "staging", "--non-interactive"],
      () => sent("voices") > voices && sent("actions") > actions,
    );
    emu.faults.clear();
    const cancel = await run("pulumi", ["cancel", "--yes", "--stack", "staging", "--non-interactive"], {
      cwd: dir,
      env,
    });
    if (cancel.code !== 0) {
      // A kill while the checkpoint is rewritten leaves it empty: put back staging's previous one.
      expect(cancel.stderr).toMatch(/failed to load checkpoint/);
      restoreBackup(stateDir, "staging");
      await pulumi(["cancel", "--yes", "--stack", "staging"]);
    }
    expect(pendingNames(await exported("staging"))).toEqual(KILLED);
    expect((await client.voices.list.all()).map((v) => v.id).every((v) => production.has(v))).toBe(true);
  }, 300_000);

  it("another provider's pending create in the checkpoint: recover writes nothing and it survives", async () => {
    const original = readFileSync(checkpoint, "utf8");
    const file = JSON.parse(original) as { checkpoint: { latest: Exported } };
    const bucket = "urn:pulumi:staging::voiceagent-environments::aws:s3/bucket:Bucket::assets";
    file.checkpoint.latest.pending_operations?.push({
      type: "creating",
      resource: { urn: bucket, type: "aws:s3/bucket:Bucket" },
    });
    // `pulumi stack import` would drop every pending operation: the file backend's checkpoint is edited instead.
    writeFileSync(checkpoint, JSON.stringify(file));
    try {
      const r = await recover([]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(bucket);
      expect(pendingNames(await exported("staging"))).toEqual([
        "creating assets",
        "creating end-call",
        "creating voice",
      ]);
    } finally {
      writeFileSync(checkpoint, original);
    }
  }, 120_000);

  it("a state that changes between recover's read and its write is not overwritten", async () => {
    // A `pulumi` first on PATH that runs a refresh of staging just before recover's second export.
    const shim = path.join(dir, ".shim");
    mkdirSync(shim, { recursive: true });
    const real = (await run("sh", ["-c", "command -v pulumi"], { cwd: dir, env })).stdout.trim();
    writeFileSync(
      path.join(shim, "pulumi"),
      `#!/bin/sh\ncase "$*" in\n  "stack export --stack staging --non-interactive") ` +
        `"${real}" refresh --yes --skip-preview --stack staging --non-interactive >/dev/null 2>&1 || exit 9 ;;\n` +
        `esac\nexec "${real}" "$@"\n`,
    );
    chmodSync(path.join(shim, "pulumi"), 0o755);
    // Staging holds what the killed up left (the test before put its checkpoint back byte for byte).
    const r = await recover([], { PATH: `${shim}:${env.PATH ?? ""}` });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/changed since recover read it/);
    expect(pendingNames(await exported("staging"))).toEqual(KILLED);
  }, 120_000);

  it("a failure of recover says in --json its code and whether the service may have acted, and writes nothing", async () => {
    emu.faults.add({ route: "/v1/voices/list", status: 403 });
    try {
      const r = await recover(["--json"]);
      expect(r.code).toBe(1);
      const { error } = JSON.parse(r.stdout) as { error: { code: string; mayHaveActed: boolean; message: string } };
      expect(error).toMatchObject({ code: "E_AUTH", mayHaveActed: false });
      expect(error.message).toMatch(/\b403\b/);
      expect(r.stderr).toContain(error.message);
    } finally {
      emu.faults.clear();
    }
    expect(pendingNames(await exported("staging"))).toEqual(KILLED);
  }, 120_000);

  it("recover clears both creates, adopting nothing production manages; staging's next up makes its own", async () => {
    const r = await recover(["--json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      protectedStacks: string[];
      decisions: { urn: string; outcome: string; id?: string; candidates?: string[] }[];
    };
    expect(report.decisions.map((d) => [d.urn.split("::").pop(), d.outcome]).sort()).toEqual([
      ["end-call", "clear"],
      ["voice", "clear"],
    ]);
    expect(
      report.decisions.flatMap((d) => [d.id ?? [], ...(d.candidates ?? [])].flat()).filter((i) => production.has(i)),
    ).toEqual([]);
    expect(report.protectedStacks).toContain("production");
    const staging = await exported("staging");
    expect(staging.pending_operations ?? []).toEqual([]);
    expect([...ids(staging)].filter((i) => production.has(i))).toEqual([]);

    await pulumi(["up", "--yes", "--skip-preview", "--stack", "staging"]);
    const after = ids(await exported("staging"));
    expect([...after].filter((i) => production.has(i))).toEqual([]);
    // One voice and one action per stack: nothing shared, nothing made twice.
    expect(await client.voices.list.all()).toHaveLength(2);
    expect(await client.actions.list.all()).toHaveLength(2);
    // Production's state is as its up left it: recover and staging's up wrote only staging's.
    expect(ids(await exported("production"))).toEqual(production);
  }, 300_000);
});
