// One stack of an SDK example (examples/python, examples/go) against a seeded emulator, as a user
// runs it: a copy of the example outside the repository, the SDK installed from its package (the
// caller builds it), the program run through its own Automation API runner, the pinned CLI on PATH
// and a file backend of its own. The plugin is either the one a release folder serves, which the
// CLI downloads by itself into an empty PULUMI_HOME with no `node` on PATH (the example's
// `plugins:` entry dropped, as a user outside this repository has it), or the repository's
// bundle named in its Pulumi.yaml.
import { randomUUID } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { REPO_ROOT, run, type RunResult } from "../helpers/consumer.js";
import { downloadEnv, pathWithout, startReleaseServer, type ReleaseServer } from "../helpers/release-server.js";

/** The folder holding the bundled plugin, as provider/package.json ships it. */
export const PLUGIN_DIR = path.join(REPO_ROOT, "provider", "dist", "plugin");

/** The change counts and outputs a runner prints last with --summary. */
export interface Summary {
  changes: Record<string, number>;
  outputs: Record<string, unknown>;
}

/** How the caller runs its language's program, once its SDK is installed. */
export interface Runner {
  cmd: string;
  args: string[];
  env?: Record<string, string>;
}

/** A running example stack. */
export interface SdkStack {
  emu: RunningEmulator;
  client: VoiceAgentClient;
  token: string;
  /** The project folder (a copy of the example). */
  dir: string;
  /** The file backend's folder. */
  stateDir: string;
  /** Everything the CLI and the program printed so far. */
  printed: string[];
  /** Runs the program's runner: `up`, `preview [--refresh]`, `destroy`, on the stack `test`. */
  program(...args: string[]): Promise<RunResult>;
  /** The same, expecting success, with the summary line parsed. */
  summary(...args: string[]): Promise<Summary>;
  /** The pinned pulumi CLI in the project folder, on the stack `test`; fails on a non-zero exit. */
  pulumi(...args: string[]): Promise<string>;
  /** The same, whatever its exit code: a command expected to fail. */
  attempt(...args: string[]): Promise<RunResult>;
  /**
   * `up`, `preview` or `destroy` (with `flags`) run by the CLI through the project's language host,
   * with what `summary` gives: the change counts, and after an up the outputs as `stack output
   * --json` lists them (a secret as "[secret]", as the runner shows it). One CLI start (two for an
   * up) where the runner's Automation API takes three to six (`pulumi version`, `stack select`,
   * after an up its read-back of the outputs and the history): for the steps that prove the SDK and
   * the plugin, not the runner. Not for Go, whose language host asks `go list` before each command.
   */
  cli(command: "up" | "preview" | "destroy", ...flags: string[]): Promise<Summary>;
  /** Where `secret` appears in plain text: `pulumi stack export`, backend files, printed text. */
  plaintext(secret: string): Promise<string[]>;
  /** With the plugin from a release: the server, and the PULUMI_HOME the CLI installs it into. */
  release?: { server: ReleaseServer; home: string; env: NodeJS.ProcessEnv };
}

/**
 * Registers hooks that start a seeded emulator and set up the example's project with a `test`
 * stack whose token is a secret; `install(tmp, project)` builds and installs the SDK (in the
 * scratch folder `tmp`, for the copied example in `project`) and says how to run the program.
 * `setupMs` bounds all of that (a cold Go build of the Pulumi SDK takes minutes on 2 cores).
 * With `releaseDir`, the plugin comes from that release folder through the CLI's download.
 */
export function useSdkStack(
  example: "python" | "go",
  install: (tmp: string, project: string) => Promise<Runner>,
  setupMs = 240_000,
  releaseDir?: string,
): SdkStack {
  const ctx = { printed: [] as string[] } as SdkStack;
  let tmp = "";
  beforeAll(async () => {
    if (!existsSync(path.join(PLUGIN_DIR, "pulumi-resource-voiceagent"))) {
      throw new Error(`no plugin bundle in ${PLUGIN_DIR}: the setup builds it (scripts/run.sh)`);
    }
    tmp = mkdtempSync(path.join(os.tmpdir(), `va-sdk-${example}-`));
    ctx.token = `sdk-${example}-${randomUUID()}`;
    ctx.emu = await startEmulator({ tokens: [ctx.token], seed: true });
    ctx.client = createClient({ baseUrl: ctx.emu.url, token: ctx.token });
    ctx.dir = path.join(tmp, "project");
    ctx.stateDir = path.join(tmp, "state");
    mkdirSync(ctx.stateDir);
    cpSync(path.join(REPO_ROOT, "examples", example), ctx.dir, { recursive: true });
    const manifest = path.join(ctx.dir, "Pulumi.yaml");
    const yaml = readFileSync(manifest, "utf8");
    if (releaseDir) {
      const dropped = yaml.replace(/^plugins:\n(?:[ #].*\n?)*/m, "");
      if (dropped === yaml) throw new Error(`examples/${example}/Pulumi.yaml has no plugins: entry to drop any more`);
      writeFileSync(manifest, dropped);
    } else {
      writeFileSync(manifest, yaml.replace("path: ../../provider/dist/plugin", `path: ${PLUGIN_DIR}`));
    }
    const runner = await install(tmp, ctx.dir);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...runner.env,
      PULUMI_BACKEND_URL: `file://${ctx.stateDir}`,
      PULUMI_CONFIG_PASSPHRASE: `sdk-${randomUUID()}`,
    };
    if (releaseDir) {
      const server = await startReleaseServer(releaseDir);
      const home = path.join(tmp, "pulumi-home");
      // No Node anywhere, and not the workspace's bin link of the plugin either (node_modules/.bin),
      // which the CLI would take as an ambient plugin instead of downloading. (Not
      // PULUMI_IGNORE_AMBIENT_PLUGINS: the language hosts are ambient plugins too.)
      const hidden = ["node", "nodejs", "pulumi-resource-voiceagent"];
      Object.assign(env, downloadEnv(server, home), {
        PATH: pathWithout(hidden, env.PATH ?? "", path.join(tmp, "path")),
      });
      ctx.release = { server, home, env };
    }
    // Settings come from stack config only, so a missing one is missing.
    delete env.VOICEAGENT_BASE_URL;
    delete env.VOICEAGENT_TOKEN;
    const record = (r: RunResult): RunResult => {
      ctx.printed.push(r.stdout, r.stderr);
      return r;
    };
    ctx.attempt = async (...args) => record(await run("pulumi", [...args, "--stack", "test"], { cwd: ctx.dir, env }));
    ctx.pulumi = async (...args) => {
      const r = await ctx.attempt(...args);
      if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
      return r.stdout;
    };
    ctx.cli = async (command, ...flags) => {
      if (command === "preview") {
        const preview = JSON.parse(await ctx.pulumi("preview", "--json", ...flags)) as {
          changeSummary?: Record<string, number>;
        };
        return { changes: preview.changeSummary ?? {}, outputs: {} };
      }
      // One engine event a line; the summary event holds the change counts.
      const events = (await ctx.pulumi(command, "--yes", "--skip-preview", "--json", ...flags))
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { summaryEvent?: { resourceChanges?: Record<string, number> } });
      const summary = events.find((e) => e.summaryEvent)?.summaryEvent;
      if (!summary) throw new Error(`pulumi ${command} printed no summary event`);
      const outputs =
        command === "up" ? (JSON.parse(await ctx.pulumi("stack", "output", "--json")) as Record<string, unknown>) : {};
      return { changes: summary.resourceChanges ?? {}, outputs };
    };
    ctx.program = async (...args) =>
      record(await run(runner.cmd, [...runner.args, ...args, "--stack", "test"], { cwd: ctx.dir, env }));
    ctx.summary = async (...args) => {
      const r = await ctx.program(...args, "--summary");
      if (r.code !== 0) throw new Error(`${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
      const last = r.stdout.trim().split("\n").at(-1) ?? "";
      return JSON.parse(last) as Summary;
    };
    // The last export, kept while no other command ran (only a command changes the state): the
    // checks of several secrets in a row export once.
    let exported = { after: -1, text: "" };
    ctx.plaintext = async (secret) => {
      const found: string[] = [];
      if (exported.after !== ctx.printed.length) {
        const text = await ctx.pulumi("stack", "export");
        exported = { after: ctx.printed.length, text };
      }
      if (exported.text.includes(secret)) found.push("pulumi stack export");
      for (const file of files(ctx.stateDir)) if (readFileSync(file).includes(secret)) found.push(file);
      if (ctx.printed.some((text) => text.includes(secret))) found.push("the CLI's or the program's output");
      return found;
    };
    const init = record(await run("pulumi", ["stack", "init", "test"], { cwd: ctx.dir, env }));
    if (init.code !== 0) throw new Error(`pulumi stack init failed:\n${init.stderr}`);
    await ctx.pulumi(
      "config",
      "set-all",
      "--plaintext",
      `voiceagent:baseUrl=${ctx.emu.url}`,
      "--secret",
      `voiceagent:token=${ctx.token}`,
    );
  }, setupMs);
  afterAll(async () => {
    await ctx.emu?.close();
    await ctx.release?.server.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
  return ctx;
}

/** Every file below dir. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** Sets config values by path (`fleet.voices.warm.pitch=0`, each `key=value`) in plain text, in one call. */
export function setPaths(ctx: SdkStack, ...pairs: string[]): Promise<string> {
  return ctx.pulumi("config", "set-all", "--path", ...pairs.flatMap((p) => ["--plaintext", p]));
}

/** The operations of a change summary other than "same". */
export function changed(summary: Summary): Record<string, number> {
  return Object.fromEntries(Object.entries(summary.changes).filter(([op, n]) => op !== "same" && n > 0));
}
