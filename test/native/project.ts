// One packed install shared by every native e2e scenario: a consumer project in the OS temp
// folder with pulumi-voiceagent installed from the tarball, and Pulumi projects in folders beside
// it, each with a `node_modules` link to that install (so the plugin path a user writes,
// ./node_modules/pulumi-voiceagent/dist/plugin, is the one used) and one file backend for all.
// The programs are compiled once by one `tsc`, which also type-checks them against the packed types.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  createConsumer,
  ok,
  packageJson,
  run,
  TEMPLATE_TSCONFIG,
  TS_DEV_DEPENDENCIES,
  type Consumer,
  type RunResult,
} from "../helpers/consumer.js";

/** Where the engine finds the plugin, relative to a project folder: inside the installed package. */
export const PLUGIN_PATH = "./node_modules/pulumi-voiceagent/dist/plugin";

/**
 * Pulumi.yaml of a project whose program is precompiled `index.js`, on the packaged plugin; with
 * `plugin: "download"`, with no `plugins:` entry, as a user writes it (the CLI downloads the plugin).
 */
export function projectYaml(name: string, extra = "", plugin: "packaged" | "download" = "packaged"): string {
  return [
    `name: ${name}`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    typescript: false",
    "main: index.js",
    ...(plugin === "packaged"
      ? ["plugins:", "  providers:", "    - name: voiceagent", `      path: ${PLUGIN_PATH}`]
      : []),
    extra,
  ].join("\n");
}

/**
 * A dynamic-entry program (a fixture of test/e2e or bench) on the native classes: its one line
 * `import * as va from "pulumi-voiceagent";` switched to the native entry, the rest untouched.
 */
export function onNative(program: string): string {
  const line = /^import \* as va from "pulumi-voiceagent";$/m;
  if (!line.test(program))
    throw new Error('the program no longer has the line `import * as va from "pulumi-voiceagent";`');
  return program.replace(line, 'import * as va from "pulumi-voiceagent/native";');
}

/** One step of `pulumi preview --json`: what it does to which resource (the type is read off the URN). */
export interface Step {
  op: string;
  urn: string;
  type: string;
  /** The properties the provider's diff named (an update's, read off `pulumi up --json`'s events). */
  diffs?: string[];
}

/** The type of a URN: `urn:pulumi:stack::project::parent$type::name`. */
const typeOf = (urn: string) => (urn.split("::")[2] ?? "").split("$").pop() ?? "";

/** A Pulumi project folder of the shared install. */
export interface Project {
  dir: string;
  /** Runs `pulumi` here on `stack`; throws with the output unless it exits 0 (or `check: false`). */
  pulumi(stack: string, args: string[], opts?: { check?: boolean; env?: Record<string, string> }): Promise<RunResult>;
  /** `pulumi stack init <stack>`. */
  init(stack: string): Promise<RunResult>;
  /** `pulumi preview --json`: its steps (our resources only) and change summary. */
  preview(stack: string, args?: string[]): Promise<{ steps: Step[]; summary: Record<string, number> }>;
  /** `pulumi up --yes --skip-preview --json`: the change summary. */
  up(stack: string, args?: string[]): Promise<Record<string, number>>;
  /**
   * The same up, with the steps it took (our resources only, as `preview` gives them): what a
   * preview would have said, read off the up itself when the preview would only have been read.
   */
  upSteps(stack: string, args?: string[]): Promise<{ steps: Step[]; summary: Record<string, number> }>;
  /** `pulumi destroy --yes --skip-preview --json`: the change summary. */
  destroy(stack: string): Promise<Record<string, number>>;
  /** `pulumi stack export` as parsed JSON: the deployment's resources. */
  exported(stack: string): Promise<
    {
      urn: string;
      type: string;
      id?: string;
      provider?: string;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
    }[]
  >;
}

/** The shared install and its backend. */
export interface NativeInstall {
  consumer: Consumer;
  /** The backend folder every project's stacks live in. */
  stateDir: string;
  /** Adds a project folder `name` with these files (a node_modules link is added); `env` as for adopt. */
  project(name: string, files: Record<string, string>, env?: Record<string, string>): Project;
  /**
   * A project folder written by someone else (e.g. `voiceagent pull`): links node_modules into it.
   * `env` is added to every command (another backend, another passphrase).
   */
  adopt(dir: string, env?: Record<string, string>): Project;
  /** Compiles every `*\/index.ts` of the projects added so far into `index.js` beside it. */
  compile(): Promise<void>;
}

/** The template's compiler options, every project's `index.ts` compiled to `index.js` beside it. */
function tsconfig(): string {
  const { compilerOptions } = JSON.parse(TEMPLATE_TSCONFIG) as { compilerOptions: Record<string, unknown> };
  const { outDir: _beside, ...options } = compilerOptions;
  return `${JSON.stringify({ compilerOptions: options, include: ["*/index.ts"] }, null, 2)}\n`;
}

const ours = (type: string) =>
  type.startsWith("voiceagent:index:") || type.startsWith("pulumi-nodejs:dynamic/voiceagent:");

/** The change summary of `pulumi up/destroy --json` (one JSON event per line). */
export function summaryOf(r: RunResult): Record<string, number> {
  const events = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { summaryEvent?: { resourceChanges?: Record<string, number> } });
  return events.find((e) => e.summaryEvent)?.summaryEvent?.resourceChanges ?? {};
}

/** The steps of `pulumi up --json` (one engine event per line): each resource's step as it began. */
export function stepsOf(r: RunResult): Step[] {
  return r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .flatMap((l) => {
      const pre = (JSON.parse(l) as { resourcePreEvent?: { metadata?: { op: string; urn: string; diffs?: string[] } } })
        .resourcePreEvent;
      const m = pre?.metadata;
      return m ? [{ op: m.op, urn: m.urn, type: typeOf(m.urn), ...(m.diffs ? { diffs: m.diffs } : {}) }] : [];
    })
    .filter((s) => ours(s.type));
}

/**
 * Installs the tarball once into a consumer project with `@pulumi/pulumi` at `pulumiVersion`
 * (and any `extra` dependencies, e.g. the policy pack's tarball).
 */
export async function nativeInstall(
  tarball: string,
  pulumiVersion: string,
  passphrase: string,
  extra: Record<string, string> = {},
): Promise<NativeInstall> {
  const consumer = createConsumer({
    name: "native",
    files: {
      "package.json": packageJson({
        name: "native-e2e",
        dependencies: { "@pulumi/pulumi": pulumiVersion, "pulumi-voiceagent": `file:${tarball}`, ...extra },
        devDependencies: TS_DEV_DEPENDENCIES,
      }),
      "tsconfig.json": tsconfig(),
    },
    passphrase,
    // Only the packed plugin that Pulumi.yaml names: never the workspace's bin link on PATH.
    env: { PULUMI_IGNORE_AMBIENT_PLUGINS: "true" },
  });
  await consumer.install();
  const stateDir = path.join(path.dirname(consumer.dir), "state");

  const adopt = (dir: string, env: Record<string, string> = {}): Project => {
    const link = path.join(dir, "node_modules");
    if (!existsSync(link)) symlinkSync(path.join(consumer.dir, "node_modules"), link, "dir");
    const pulumi: Project["pulumi"] = async (stack, args, o = {}) => {
      const r = await run("pulumi", [...args, "--stack", stack], {
        cwd: dir,
        env: { ...consumer.env, ...env, ...o.env },
      });
      return o.check === false ? r : ok(`pulumi ${args.join(" ")} (${path.basename(dir)}/${stack})`, r);
    };
    return {
      dir,
      pulumi,
      async init(stack) {
        return ok(
          `pulumi stack init ${stack}`,
          await run("pulumi", ["stack", "init", stack], { cwd: dir, env: { ...consumer.env, ...env } }),
        );
      },
      async preview(stack, args = []) {
        const r = await pulumi(stack, ["preview", "--json", ...args]);
        const parsed = JSON.parse(r.stdout) as {
          steps?: { op: string; urn: string }[];
          changeSummary: Record<string, number>;
        };
        const steps = (parsed.steps ?? []).map((s) => ({ op: s.op, urn: s.urn, type: typeOf(s.urn) }));
        return { steps: steps.filter((s) => ours(s.type)), summary: parsed.changeSummary };
      },
      up: async (stack, args = []) =>
        summaryOf(await pulumi(stack, ["up", "--yes", "--skip-preview", "--json", ...args])),
      async upSteps(stack, args = []) {
        const r = await pulumi(stack, ["up", "--yes", "--skip-preview", "--json", ...args]);
        return { steps: stepsOf(r), summary: summaryOf(r) };
      },
      destroy: async (stack) => summaryOf(await pulumi(stack, ["destroy", "--yes", "--skip-preview", "--json"])),
      async exported(stack) {
        const r = await pulumi(stack, ["stack", "export"]);
        return (
          (JSON.parse(r.stdout) as { deployment: { resources?: Awaited<ReturnType<Project["exported"]>> } }).deployment
            .resources ?? []
        );
      },
    };
  };
  return {
    consumer,
    stateDir,
    project(name, files, env) {
      const dir = path.join(consumer.dir, name);
      mkdirSync(dir, { recursive: true });
      for (const [rel, text] of Object.entries(files)) writeFileSync(path.join(dir, rel), text);
      return adopt(dir, env);
    },
    adopt,
    async compile() {
      ok(
        "tsc",
        await run(path.join(consumer.dir, "node_modules/.bin/tsc"), ["-p", "."], {
          cwd: consumer.dir,
          env: consumer.env,
        }),
      );
    },
  };
}

/** Files under `dir` (symlinks not followed: node_modules links are skipped) that contain `text`. */
export function filesContaining(dir: string, text: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      const st = lstatSync(p);
      if (st.isSymbolicLink() || (name === "node_modules" && st.isDirectory())) continue;
      if (st.isDirectory()) walk(p);
      else if (readFileSync(p).includes(text)) found.push(p);
    }
  };
  walk(dir);
  return found;
}
