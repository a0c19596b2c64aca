// `npx voiceagent` as a new user runs it (issue 49): the packed package, run by `npx --package
// <tarball>` in an empty folder of the OS temp dir, with no @pulumi/pulumi anywhere up the tree
// (npx installs the package's dependencies, never its optional peer). The commands that only read
// the service need nothing from @pulumi/pulumi; those that drive Pulumi say in one line (or JSON
// with --json) what they need, and exit 1. No output holds a stack trace or the token.
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { consumerEnv, ok, run, type RunResult } from "../helpers/consumer.js";

const TOKEN = `npx-${randomUUID()}`;
/** A PATH with node, npm and npx and the system's shell tools, and no pulumi command. */
const NO_PULUMI_PATH = [path.dirname(process.execPath), "/usr/bin", "/bin"];
let emu: RunningEmulator;
let dir: string;
const outputs: RunResult[] = [];

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], seed: true });
  dir = mkdtempSync(path.join(os.tmpdir(), "va-npx-"));
});
afterAll(async () => {
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The environment every run gets: the service's address and token, and a PATH without pulumi. */
const userEnv = (): NodeJS.ProcessEnv =>
  consumerEnv({
    PATH: NO_PULUMI_PATH.join(":"),
    VOICEAGENT_BASE_URL: emu.url,
    VOICEAGENT_TOKEN: TOKEN,
    // npx's own notices (installing the package) are not the command's output.
    npm_config_loglevel: "error",
    npm_config_update_notifier: "false",
  });

/** `npx --package <tarball> voiceagent ...args` in the empty folder. */
async function voiceagent(args: string[]): Promise<RunResult> {
  const r = await run("npx", ["--yes", "--package", inject("providerTarball"), "voiceagent", ...args], {
    cwd: dir,
    env: userEnv(),
  });
  outputs.push(r);
  return r;
}

const quote = (a: string) => `'${a.replaceAll("'", "'\\''")}'`;

/**
 * Runs several `voiceagent` commands in one `npx --package <tarball> -c` (npx installs the package
 * once for them, as for one command): each with its own output and exit code. `pathExtra` is
 * appended to a command's PATH (the pulumi command for the YAML pull).
 */
async function session(
  commands: { args: string[]; env?: Record<string, string>; pathExtra?: string }[],
): Promise<RunResult[]> {
  const out = mkdtempSync(path.join(os.tmpdir(), "va-npx-out-"));
  const script = commands
    .map((c, i) => {
      const env = Object.entries(c.env ?? {}).map(([k, v]) => `${k}=${quote(v)}`);
      // npx's PATH (its bin folder first) kept: only the extra folder is added.
      if (c.pathExtra) env.unshift(`PATH="$PATH":${quote(c.pathExtra)}`);
      const prefix = env.length ? `env ${env.join(" ")} ` : "";
      const args = c.args.map(quote).join(" ");
      const to = (f: string) => quote(path.join(out, `${i}.${f}`));
      return `${prefix}voiceagent ${args} >${to("stdout")} 2>${to("stderr")}; echo $? >${to("code")}`;
    })
    .join("\n");
  ok(
    "npx -c",
    await run("npx", ["--yes", "--package", inject("providerTarball"), "-c", script], { cwd: dir, env: userEnv() }),
  );
  const results = commands.map((_, i) => ({
    code: Number(readFileSync(path.join(out, `${i}.code`), "utf8").trim()),
    stdout: readFileSync(path.join(out, `${i}.stdout`), "utf8"),
    stderr: readFileSync(path.join(out, `${i}.stderr`), "utf8"),
  }));
  rmSync(out, { recursive: true, force: true });
  outputs.push(...results);
  return results;
}

/** The one line a failed command printed on stderr. */
const oneLine = (r: RunResult) => {
  const lines = r.stderr.trim().split("\n");
  expect(lines, r.stderr).toHaveLength(1);
  return lines[0] ?? "";
};

describe("npx voiceagent in an empty folder, without @pulumi/pulumi", () => {
  it("the folder and its parents hold no @pulumi/pulumi, and the PATH no pulumi command", () => {
    expect(() => createRequire(path.join(dir, "noop.js")).resolve("@pulumi/pulumi")).toThrow();
    expect(NO_PULUMI_PATH.filter((d) => existsSync(path.join(d, "pulumi")))).toEqual([]);
  });

  it("--help, as a user runs it", async () => {
    const help = ok("voiceagent --help", await voiceagent(["--help"]));
    for (const command of ["pull", "audit", "drift", "snapshot", "recover"]) expect(help.stdout).toContain(command);
  });

  it(`--version, pull in every format, snapshot and audit --state succeed; drift, audit --stack and recover say in \
one line what they need`, async () => {
    // A stack export that manages nothing: every object of the account is reported unmanaged (exit 3).
    writeFileSync(
      path.join(dir, "state.json"),
      JSON.stringify({ version: 3, deployment: { manifest: {}, resources: [] } }),
    );
    const backend = mkdtempSync(path.join(os.tmpdir(), "va-npx-backend-"));
    const pulumiDir = (process.env.PATH ?? "").split(":").find((d) => existsSync(path.join(d, "pulumi")));
    if (!pulumiDir) throw new Error("no pulumi command on the test's PATH (run the tests through npm test)");
    const [version, plan, program, fleet, yaml, snapshot, audited, drift, driftJson, auditStack, recover] =
      await session([
        { args: ["--version"] },
        { args: ["pull", "--json"] },
        { args: ["pull", "--out", "program"] },
        { args: ["pull", "--format", "stack", "--stack", "dev", "--out", "fleet"] },
        // The YAML format sets the stack's config through the pulumi command: it needs that command and a backend.
        {
          args: ["pull", "--format", "yaml", "--stack", "dev", "--out", "yaml"],
          pathExtra: pulumiDir,
          env: {
            PULUMI_BACKEND_URL: `file://${backend}`,
            PULUMI_CONFIG_PASSPHRASE: "npx-test",
          },
        },
        { args: ["snapshot", "--out", "before.json"] },
        { args: ["audit", "--state", "state.json", "--json"] },
        { args: ["drift", "--stack", "dev"] },
        { args: ["drift", "--stack", "dev", "--json"] },
        { args: ["audit", "--stack", "dev"] },
        { args: ["recover", "--stack", "dev"] },
      ]);
    rmSync(backend, { recursive: true, force: true });
    expect(path.basename(inject("providerTarball"))).toContain(ok("--version", version!).stdout.trim());
    expect((JSON.parse(ok("pull --json", plan!).stdout) as { resources: unknown[] }).resources.length).toBeGreaterThan(
      0,
    );
    ok("pull", program!);
    expect(readFileSync(path.join(dir, "program", "index.ts"), "utf8")).toContain("pulumi-voiceagent");
    ok("pull --format stack", fleet!);
    expect(existsSync(path.join(dir, "fleet", "Pulumi.dev.yaml"))).toBe(true);
    ok("pull --format yaml", yaml!);
    expect(existsSync(path.join(dir, "yaml", "Pulumi.yaml"))).toBe(true);
    ok("snapshot", snapshot!);
    expect(existsSync(path.join(dir, "before.json"))).toBe(true);
    expect(audited!.code, audited!.stderr).toBe(3);
    const report = JSON.parse(audited!.stdout) as { findings: { finding: string }[] };
    expect(report.findings.map((f) => f.finding)).toContain("unmanaged");

    // drift: one line naming @pulumi/pulumi and how to get it; with --json, the error object.
    expect(drift!.code).toBe(1);
    expect(oneLine(drift!)).toMatch(/@pulumi\/pulumi.*npm install/);
    expect(driftJson!.code).toBe(1);
    oneLine(driftJson!);
    const error = (JSON.parse(driftJson!.stdout) as { error: { mayHaveActed: boolean; message: string } }).error;
    expect(error).toMatchObject({ mayHaveActed: false, message: expect.stringMatching(/@pulumi\/pulumi/) });
    // audit --stack and recover: one line naming the pulumi command and where to get it.
    for (const r of [auditStack!, recover!]) {
      expect(r.code, r.stderr).toBe(1);
      expect(oneLine(r)).toMatch(/pulumi command is not on PATH: install the Pulumi CLI/);
    }
  });

  afterAll(() => {
    for (const r of outputs) {
      const all = `${r.stdout}\n${r.stderr}`;
      expect(all).not.toMatch(/^\s+at \S/m);
      expect(all).not.toContain(TOKEN);
    }
  });
});
