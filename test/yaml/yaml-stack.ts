// A Pulumi YAML project as a user has it: made by `pulumi new` from templates/voiceagent-yaml in
// the OS temp folder, no `node` on PATH, an empty PULUMI_HOME into which the CLI downloads the
// plugin from the release folder (served on 127.0.0.1), a file backend of its own, and a seeded
// emulator. One project (and one download) serves every scenario of test/yaml.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { REPO_ROOT, run, type RunResult } from "../helpers/consumer.js";
import { downloadEnv, pathWithout, startReleaseServer, type ReleaseServer } from "../helpers/release-server.js";

/** The template the project is made from. */
export const TEMPLATE = path.join(REPO_ROOT, "templates", "voiceagent-yaml");

/** A running YAML project. */
export interface YamlStack {
  emu: RunningEmulator;
  client: VoiceAgentClient;
  token: string;
  /** The scratch folder holding the project, the backend and PULUMI_HOME. */
  tmp: string;
  /** The project folder (made by `pulumi new`). */
  dir: string;
  stateDir: string;
  /** The environment every command runs with: no node on PATH, the release server's download. */
  env: NodeJS.ProcessEnv;
  server: ReleaseServer;
  home: string;
  /** Everything the CLI printed so far. */
  printed: string[];
  /** `pulumi <args> --stack test` in `cwd` (the project by default), recorded; never throws. */
  pulumi(args: string[], cwd?: string): Promise<RunResult>;
  /** The same, failing with the CLI's output on a non-zero exit; returns stdout. */
  must(args: string[], cwd?: string): Promise<string>;
  /** Where `secret` appears in plain text: `pulumi stack export`, backend files, printed text. */
  plaintext(secret: string, cwd?: string): Promise<string[]>;
}

/** Every file below dir. */
export function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/**
 * Registers hooks that make the project with `pulumi new` (config: the emulator's address; the
 * token and the prompt set as secrets afterwards) and tear everything down.
 */
export function useYamlStack(releaseDir: string, prompt: string): YamlStack {
  const ctx = { printed: [] as string[] } as YamlStack;
  beforeAll(async () => {
    ctx.tmp = mkdtempSync(path.join(os.tmpdir(), "va-yaml-"));
    ctx.token = `yaml-${randomUUID()}`;
    ctx.emu = await startEmulator({ tokens: [ctx.token, `${ctx.token}-pulled`], seed: true });
    ctx.client = createClient({ baseUrl: ctx.emu.url, token: ctx.token });
    ctx.dir = path.join(ctx.tmp, "project");
    ctx.stateDir = path.join(ctx.tmp, "state");
    mkdirSync(ctx.stateDir);
    ctx.server = await startReleaseServer(releaseDir);
    ctx.home = path.join(ctx.tmp, "pulumi-home");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...downloadEnv(ctx.server, ctx.home),
      PULUMI_BACKEND_URL: `file://${ctx.stateDir}`,
      PULUMI_CONFIG_PASSPHRASE: `yaml-${randomUUID()}`,
      // No Node anywhere, and not the workspace's bin link of the plugin (an ambient plugin).
      PATH: pathWithout(
        ["node", "nodejs", "pulumi-resource-voiceagent"],
        process.env.PATH ?? "",
        path.join(ctx.tmp, "path"),
      ),
    };
    // Settings come from stack config only.
    delete env.VOICEAGENT_BASE_URL;
    delete env.VOICEAGENT_TOKEN;
    ctx.env = env;
    const record = (r: RunResult): RunResult => {
      ctx.printed.push(r.stdout, r.stderr);
      return r;
    };
    ctx.pulumi = async (args, cwd = ctx.dir) =>
      record(await run("pulumi", [...args, "--stack", "test", "--non-interactive"], { cwd, env }));
    ctx.must = async (args, cwd) => {
      const r = await ctx.pulumi(args, cwd);
      if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
      return r.stdout;
    };
    // The last export, kept while no other command ran (only a command changes the state): the
    // checks of several secrets in a row export once.
    let exported = { cwd: "", after: -1, text: "" };
    ctx.plaintext = async (secret, cwd) => {
      const found: string[] = [];
      if (exported.cwd !== (cwd ?? ctx.dir) || exported.after !== ctx.printed.length) {
        const text = await ctx.must(["stack", "export"], cwd);
        exported = { cwd: cwd ?? ctx.dir, after: ctx.printed.length, text };
      }
      if (exported.text.includes(secret)) found.push("pulumi stack export");
      for (const file of files(ctx.stateDir)) if (readFileSync(file).includes(secret)) found.push(file);
      for (const file of files(cwd ?? ctx.dir)) if (readFileSync(file).includes(secret)) found.push(file);
      if (ctx.printed.some((text) => text.includes(secret))) found.push("the CLI's output");
      return found;
    };
    const made = record(
      await run(
        "pulumi",
        [
          "new",
          TEMPLATE,
          "--dir",
          ctx.dir,
          "--yes",
          "--name",
          "va-yaml",
          "--description",
          "Our front desk, in YAML",
          "--stack",
          "test",
          "-c",
          `voiceagent:baseUrl=${ctx.emu.url}`,
        ],
        { cwd: ctx.tmp, env },
      ),
    );
    if (made.code !== 0) throw new Error(`pulumi new failed:\n${made.stdout}\n${made.stderr}`);
    await ctx.must(["config", "set-all", "--secret", `voiceagent:token=${ctx.token}`, "--secret", `prompt=${prompt}`]);
  }, 120_000);
  afterAll(async () => {
    await ctx.emu?.close();
    await ctx.server?.close();
    if (ctx.tmp) rmSync(ctx.tmp, { recursive: true, force: true });
  });
  return ctx;
}
