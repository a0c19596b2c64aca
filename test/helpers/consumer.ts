// Temporary Pulumi projects outside the repository, as our users have them: the provider installed
// from its packed tarball by npm or pnpm, and the plain `pulumi` CLI run in the project folder.
// Free of vitest, so scripts/upgrade-fixture.ts uses it too.
import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, from the source (tests) or from dist/ (scripts/upgrade-fixture). */
export const REPO_ROOT = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));

function findRepoRoot(from: string): string {
  for (let dir = from; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && readFileSync(manifest, "utf8").includes('"name": "pulumi-voiceagent-repo"')) return dir;
  }
  throw new Error(`no pulumi-voiceagent-repo package.json above ${from}`);
}

/** How a command ended, with everything it printed. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion; never throws for a non-zero exit (the caller decides). */
export function run(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Throws with the command's output unless it exited 0. */
export function ok(what: string, r: RunResult): RunResult {
  if (r.code !== 0)
    throw new Error(
      `${what} exited ${r.code}\n--- stdout\n${r.stdout.slice(-6000)}\n--- stderr\n${r.stderr.slice(-6000)}`,
    );
  return r;
}

/** The environment of everything run in a consumer project: ours, minus what would leak the repo in. */
export function consumerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const leaks = /^(npm_|INIT_CWD$|VOICEAGENT_|PULUMI_BACKEND_URL$|PULUMI_CONFIG_PASSPHRASE)/;
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !leaks.test(k)));
  return {
    ...base,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // Whoever installs (we, or the language host for pulumi new/install): the shared cache first.
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    ...extra,
  };
}

/** What `npm pack` of a workspace (the provider unless named) would ship, hashed: the key of the tarball cache. */
export function providerContentHash(workspace = "provider"): string {
  const dir = path.join(REPO_ROOT, workspace);
  const hash = createHash("sha256");
  const add = (rel: string) => {
    const p = path.join(dir, rel);
    if (existsSync(p)) hash.update(rel).update(readFileSync(p));
  };
  ["package.json", "README.md", "LICENSE", "PulumiPolicy.yaml"].forEach(add);
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) walk(r);
      else if (/\.(js|d\.ts)$/.test(e.name)) add(r);
    }
  };
  walk("dist");
  return hash.digest("hex").slice(0, 16);
}

/** Marks a cache entry as used now (before a run looks at it, so that a prune meanwhile spares it); no-op when absent. */
export function touchCacheEntry(entry: string): void {
  const now = new Date();
  try {
    utimesSync(entry, now, now);
  } catch {
    // Not there (yet): nothing to mark.
  }
}

/**
 * Removes the entries of the cache folder `root` that no run used for `maxAgeMs` (a run of another
 * clone may still use a younger one), newest `spare` and `keep` (marked used by the caller, with
 * touchCacheEntry, before it looked at it) aside: a cache keyed by content
 * gains an entry per build, and each release folder weighs ~50 MB. Runs of several clones prune at
 * once: an entry's age is read again right before it is moved aside (renamed, so no run ever sees
 * half of it), and whatever another run removed or holds is left to it.
 */
export function pruneCache(root: string, keep: string, { maxAgeMs = 2 * 3_600_000, spare = 4 } = {}): void {
  const age = (p: string) => Date.now() - statSync(p).mtimeMs;
  const entries = readdirSync(root)
    .map((name) => path.join(root, name))
    .filter((p) => p !== keep)
    .flatMap((p) => {
      try {
        return [{ p, age: p.includes(".trash-") ? Number.POSITIVE_INFINITY : age(p) }];
      } catch {
        return []; // removed meanwhile by another run's prune
      }
    })
    .sort((a, b) => a.age - b.age);
  for (const { p } of entries.slice(spare)) {
    try {
      if (p.includes(".trash-")) {
        rmSync(p, { recursive: true, force: true });
        continue;
      }
      if (age(p) <= maxAgeMs) continue;
      const trash = `${p}.trash-${randomUUID().slice(0, 8)}`;
      renameSync(p, trash);
      rmSync(trash, { recursive: true, force: true });
    } catch {
      // Removed or in use by another run (Windows refuses to remove a folder in use): its turn.
    }
  }
}

/**
 * `npm pack` of the provider workspace (or `workspace`; its prepack builds it), once per content: the tarball is
 * kept under the OS temp folder keyed by a hash of what it ships, so test files, runs and clones
 * with the same build share it. Returns the tarball's path.
 */
export async function packProvider(
  cacheRoot = path.join(os.tmpdir(), "pulumi-voiceagent-packs"),
  workspace: { folder: string; name: string } = { folder: "provider", name: "pulumi-voiceagent" },
): Promise<string> {
  const dir = path.join(cacheRoot, providerContentHash(workspace.folder));
  touchCacheEntry(dir);
  const existing = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith(".tgz")) : undefined;
  if (existing) {
    pruneCache(cacheRoot, dir);
    return path.join(dir, existing);
  }
  const staging = `${dir}.tmp-${process.pid}-${randomUUID().slice(0, 8)}`;
  mkdirSync(staging, { recursive: true });
  const r = ok(
    `npm pack -w ${workspace.name}`,
    await run("npm", ["pack", "-w", workspace.name, "--pack-destination", staging, "--json", "--loglevel=error"], {
      cwd: REPO_ROOT,
      env: consumerEnv({}),
    }),
  );
  const [{ filename }] = JSON.parse(r.stdout) as [{ filename: string }];
  try {
    renameSync(staging, dir);
  } catch {
    // Another process packed the same content first: theirs is identical.
    rmSync(staging, { recursive: true, force: true });
  }
  pruneCache(cacheRoot, dir);
  return path.join(dir, path.basename(filename));
}

const rootManifest = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  devDependencies: Record<string, string>;
};

/** The dev tools of a `pulumi new typescript` project, at the versions this repository pins (cached). */
export const TS_DEV_DEPENDENCIES = {
  "@types/node": rootManifest.devDependencies["@types/node"] ?? "^24",
  typescript: rootManifest.devDependencies.typescript ?? "^5",
};

/** The tsconfig of Pulumi's `typescript` template before 2026 (CommonJS, moduleResolution node). */
export const TEMPLATE_TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      strict: true,
      outDir: "bin",
      target: "es2020",
      module: "commonjs",
      moduleResolution: "node",
      sourceMap: true,
      experimentalDecorators: true,
      pretty: true,
      noFallthroughCasesInSwitch: true,
      noImplicitReturns: true,
      forceConsistentCasingInFileNames: true,
    },
    files: ["index.ts"],
  },
  null,
  4,
)}\n`;

/** A package.json for a consumer project, in the shape `pulumi new` leaves. */
export function packageJson(p: {
  name: string;
  main?: string;
  type?: "module" | "commonjs";
  dependencies: Record<string, string>;
  devDependencies?: Record<string, string>;
}): string {
  const manifest = {
    name: p.name,
    ...(p.type ? { type: p.type } : {}),
    main: p.main ?? "index.ts",
    devDependencies: p.devDependencies,
    dependencies: p.dependencies,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Options of a consumer project. */
export interface ConsumerOptions {
  /** A short name: the folder prefix. */
  name: string;
  /** Files to write (relative path to content), or a folder to copy (without node_modules, bin, lockfile). */
  files: Record<string, string> | { copyFrom: string };
  /** Dependencies to point at other specs after copying, e.g. pulumi-voiceagent at the tarball. */
  redirect?: Record<string, string>;
  /** Who installs: npm (default), pnpm, or `pulumi install` (our language host, per Pulumi.yaml). */
  installer?: "npm" | "pnpm" | "pulumi install";
  passphrase?: string;
  /** Extra environment for every command run in the project (e.g. VOICEAGENT_* credentials). */
  env?: Record<string, string>;
}

/** A project in the OS temp folder with its own file backend. */
export interface Consumer {
  dir: string;
  env: NodeJS.ProcessEnv;
  /**
   * Installs the dependencies; throws with the output on failure. `seeded`: npm found node_modules
   * already laid out by an earlier identical install of this test run (see {@link INSTALL_SEEDS_ENV}).
   */
  install(): Promise<RunResult & { seeded: boolean }>;
  /** Runs the plain `pulumi` CLI in the project; `check: false` returns a failure instead of throwing. */
  pulumi(args: string[], opts?: { check?: boolean; env?: Record<string, string> }): Promise<RunResult>;
  /** `pulumi up --yes --skip-preview`: the resource changes of the update. */
  up(args?: string[]): Promise<Record<string, number>>;
  /** `pulumi destroy --yes`: the resource changes. */
  destroy(): Promise<Record<string, number>>;
  /** `pulumi preview --json`: the change summary. */
  preview(args?: string[]): Promise<Record<string, number>>;
  /** `pulumi stack output --json`. */
  outputs(): Promise<Record<string, unknown>>;
  /** Sets stack config (secret with `secret: true`). */
  config(values: Record<string, string | { value: string; secret: true }>): Promise<void>;
  dispose(): void;
}

/** Creates a consumer project in the OS temp folder (not installed yet). */
export function createConsumer(opts: ConsumerOptions): Consumer {
  const root = mkdtempSync(path.join(os.tmpdir(), `va-${opts.name}-`));
  const dir = path.join(root, "project");
  mkdirSync(dir);
  if ("copyFrom" in opts.files) {
    const from = opts.files.copyFrom;
    cpSync(from, dir, {
      recursive: true,
      filter: (src) => !/(^|\/)(node_modules|bin|package-lock\.json)$/.test(path.relative(from, src)),
    });
  } else {
    for (const [rel, content] of Object.entries(opts.files)) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), content);
    }
  }
  if (opts.redirect) redirectDependencies(path.join(dir, "package.json"), opts.redirect);
  const env = consumerEnv({
    PULUMI_BACKEND_URL: `file://${path.join(root, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: opts.passphrase ?? "consumer-test",
    ...opts.env,
  });
  mkdirSync(path.join(root, "state"));

  const pulumi: Consumer["pulumi"] = async (args, o = {}) => {
    const r = await run("pulumi", args, { cwd: dir, env: { ...env, ...o.env } });
    return o.check === false ? r : ok(`pulumi ${args.join(" ")}`, r);
  };
  const changesOf = async (args: string[]) => {
    const r = await pulumi([...args, "--json"], { check: false });
    const events = r.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as PulumiEvent);
    if (r.code !== 0) {
      const diags = events.flatMap((e) => (e.diagnosticEvent?.severity === "error" ? [e.diagnosticEvent.message] : []));
      throw new Error(
        `pulumi ${args.join(" ")} exited ${r.code}: ${[...new Set(diags)].join("\n") || r.stderr || r.stdout}`,
      );
    }
    return events.find((e) => e.summaryEvent)?.summaryEvent?.resourceChanges ?? {};
  };
  return {
    dir,
    env,
    async install() {
      const installer = opts.installer ?? "npm";
      const [cmd, args] =
        installer === "pulumi install"
          ? ["pulumi", ["install"]]
          : installer === "pnpm"
            ? [path.join(REPO_ROOT, "node_modules/.bin/pnpm"), ["install", "--reporter=append-only"]]
            : ["npm", ["install", "--loglevel=error"]];
      const seed = installer === "npm" ? installSeed(dir) : undefined;
      const seeded = seed !== undefined && (await linkTree(path.join(seed, "node_modules"), dir));
      const r = ok(installer, await run(cmd, args, { cwd: dir, env }));
      if (seed !== undefined && !seeded) await publishSeed(dir, seed);
      return { ...r, seeded };
    },
    pulumi,
    up: (args = []) => changesOf(["up", "--yes", "--skip-preview", ...args]),
    destroy: () => changesOf(["destroy", "--yes", "--skip-preview"]),
    async preview(args = []) {
      const r = await pulumi(["preview", "--json", ...args]);
      return (JSON.parse(r.stdout) as { changeSummary: Record<string, number> }).changeSummary;
    },
    async outputs() {
      return JSON.parse((await pulumi(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    },
    async config(values) {
      // One `config set-all` for all of them: each CLI start costs a quarter second of CPU or more (a busy
      // machine: more), and each secret one more key derivation of the passphrase.
      const args = Object.entries(values).flatMap(([key, v]) =>
        typeof v === "string" ? ["--plaintext", `${key}=${v}`] : ["--secret", `${key}=${v.value}`],
      );
      if (args.length) await pulumi(["config", "set-all", ...args]);
    },
    dispose() {
      if (!process.env.VOICEAGENT_KEEP_CONSUMERS) rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * The environment variable naming the test run's folder of prepared npm installs (set by
 * test/install-seeds-setup.ts; unset elsewhere, e.g. for scripts/upgrade-fixture, which then installs
 * as before). An npm install writes ~14,000 files (~150 MB, @pulumi/pulumi's OpenTelemetry
 * packages the most): 8 to 14 s of CPU, most of it the kernel's. Several test files install the same
 * dependencies (the newest @pulumi/pulumi with the tarball and TypeScript; examples/basic and
 * examples/environments), so the first install of a set of dependencies is kept aside, and a later
 * project with the same dependencies gets its tree before its own `npm install`, which still runs
 * as a user runs it: it finds the tree it would build, says "up to date" and writes its lockfiles.
 * The project ends up with what a fresh install gives it. The trees are hard links (a copy costs
 * 3 to 6 s of CPU on a busy machine, links under 1 s): npm replaces a package's folder and never
 * edits its files, and no test writes into node_modules; the one file npm rewrites in place, the
 * hidden lockfile node_modules/.package-lock.json, is copied instead.
 */
export const INSTALL_SEEDS_ENV = "VOICEAGENT_TEST_INSTALL_SEEDS";

/** The folder of the prepared install for `projectDir`'s package.json dependencies (it may not exist yet); undefined when off. */
function installSeed(projectDir: string): string | undefined {
  const root = process.env[INSTALL_SEEDS_ENV];
  const manifest = path.join(projectDir, "package.json");
  if (
    !root ||
    root === "off" ||
    process.platform === "win32" ||
    !existsSync(manifest) ||
    existsSync(path.join(projectDir, "node_modules"))
  )
    return undefined;
  const { dependencies, devDependencies, optionalDependencies, peerDependencies, overrides } = JSON.parse(
    readFileSync(manifest, "utf8"),
  ) as Record<string, unknown>;
  const key = createHash("sha256")
    .update(JSON.stringify({ dependencies, devDependencies, optionalDependencies, peerDependencies, overrides }))
    .digest("hex")
    .slice(0, 16);
  return path.join(root, key);
}

/**
 * `cp -al from into/`: the folder `from` (a node_modules) recreated in `into` with its files hard
 * linked (modes and times kept: npm trusts its hidden lockfile by them), the hidden lockfile
 * copied. False, leaving nothing behind, when `from` is absent or cannot be linked (another file
 * system): the install then runs from scratch.
 */
async function linkTree(from: string, into: string): Promise<boolean> {
  if (!existsSync(from)) return false;
  const linked = await run("cp", ["-al", from, into], { cwd: into }).catch(() => undefined);
  if (linked?.code !== 0) {
    rmSync(path.join(into, path.basename(from)), { recursive: true, force: true });
    return false;
  }
  const hidden = path.join(into, path.basename(from), ".package-lock.json");
  if (existsSync(hidden)) {
    const { atime, mtime } = statSync(hidden);
    const text = readFileSync(hidden);
    rmSync(hidden);
    writeFileSync(hidden, text);
    utimesSync(hidden, atime, mtime);
  }
  return true;
}

/** Keeps the project's fresh node_modules aside as the prepared install of its dependencies (first one wins). */
async function publishSeed(projectDir: string, seed: string): Promise<void> {
  if (existsSync(seed)) return;
  const staging = `${seed}.tmp-${process.pid}-${randomUUID().slice(0, 8)}`;
  mkdirSync(staging, { recursive: true });
  if (!(await linkTree(path.join(projectDir, "node_modules"), staging))) {
    rmSync(staging, { recursive: true, force: true });
    return;
  }
  try {
    renameSync(staging, seed);
  } catch {
    // Another test file published the same dependencies first: theirs is the same tree.
    rmSync(staging, { recursive: true, force: true });
  }
}

/** One line of `pulumi up --json`: only the events we read. */
interface PulumiEvent {
  summaryEvent?: { resourceChanges?: Record<string, number> };
  diagnosticEvent?: { severity: string; message: string };
}

/** Rewrites dependency specs in a package.json (in dependencies or devDependencies). */
export function redirectDependencies(file: string, specs: Record<string, string>): void {
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, string> | undefined>;
  for (const [name, spec] of Object.entries(specs)) {
    const section = [manifest.dependencies, manifest.devDependencies].find((s) => s && name in s);
    if (!section) throw new Error(`${file} does not depend on ${name}`);
    section[name] = spec;
  }
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * The packages a project's npm install brought in for `name` (its dependencies, transitively, as
 * recorded in node_modules/.package-lock.json; peers excluded): what a user pays for our package.
 */
export function dependencyClosure(projectDir: string, name: string): string[] {
  const lock = JSON.parse(readFileSync(path.join(projectDir, "node_modules/.package-lock.json"), "utf8")) as {
    packages: Record<
      string,
      { version?: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }
    >;
  };
  const seen = new Set<string>();
  const resolve = (from: string, dep: string): string | undefined => {
    for (
      let base = from;
      ;
      base = base.includes("/node_modules/") ? base.slice(0, base.lastIndexOf("/node_modules/")) : ""
    ) {
      const key = base ? `${base}/node_modules/${dep}` : `node_modules/${dep}`;
      if (lock.packages[key]) return key;
      if (!base) return undefined;
    }
  };
  const visit = (key: string) => {
    const p = lock.packages[key];
    for (const dep of Object.keys({ ...p?.dependencies, ...p?.optionalDependencies })) {
      const at = resolve(key, dep);
      if (at && !seen.has(at)) {
        seen.add(at);
        visit(at);
      }
    }
  };
  visit(`node_modules/${name}`);
  return [...seen].map((k) => `${k.slice(k.lastIndexOf("node_modules/") + 13)}@${lock.packages[k]?.version}`).sort();
}
