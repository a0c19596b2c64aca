import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  LocalWorkspace,
  PulumiCommand,
  type ConfigMap,
  type OutputMap,
  type Stack,
} from "@pulumi/pulumi/automation/index.js";

/** The repository root: e2e projects live below it so the package resolves by its own name. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Options for a throwaway stack driven by the real CLI. */
export interface TestStackOptions {
  /** The compiled program, relative to the repository root (e.g. dist/test/e2e/fixtures/smoke/index.js). */
  program: string;
  /** A short name for the project folder (and the project, unless `project` is given). */
  name: string;
  /** The project name, when the program reads config in its own namespace. */
  project?: string;
  config?: ConfigMap;
  /** The stack's name ("test" unless given): two stacks of one project on one backend need two. */
  stack?: string;
  /** Extra environment for the CLI and the programs it runs (PULUMI_BACKEND_URL names another backend than the stack's folder). */
  env?: Record<string, string>;
}

/** A stack in its own project folder under .pulumi-state/work, with a way to remove both. */
export interface TestStack {
  stack: Stack;
  workDir: string;
  stateDir: string;
  dispose(): Promise<void>;
}

/**
 * The `pulumi` on PATH, asked its version once per test process: a LocalWorkspace made without one
 * runs `pulumi version` first (a CLI start per stack; the global setup checks the version once).
 */
let pulumiCommand: Promise<PulumiCommand> | undefined;
function sharedPulumiCommand(): Promise<PulumiCommand> {
  pulumiCommand ??= PulumiCommand.get();
  return pulumiCommand;
}

/** Creates a fresh stack for `program` on the local file backend. */
export async function createTestStack(opts: TestStackOptions): Promise<TestStack> {
  const id = randomUUID().slice(0, 8);
  const workDir = path.join(ROOT, ".pulumi-state", "work", `${opts.name}-${id}`);
  const stateDir = path.join(ROOT, ".pulumi-state", "backends", `${opts.name}-${id}`);
  mkdirSync(workDir, { recursive: true });
  mkdirSync(stateDir, { recursive: true });
  const envVars = {
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: "voiceagent-test",
    ...opts.env,
  };
  // A fresh folder has no stack to select: `createStack` runs only `pulumi stack init` (createOrSelectStack
  // first runs a `pulumi stack select` that fails: one more CLI start per test stack).
  const stack = await LocalWorkspace.createStack(
    { stackName: opts.stack ?? "test", workDir },
    {
      projectSettings: {
        name: opts.project ?? `va-${opts.name}`,
        // Compiled by tsc already: no ts-node in the program process.
        runtime: { name: "nodejs", options: { typescript: false } },
        main: path.relative(workDir, path.join(ROOT, opts.program)),
      },
      envVars,
      pulumiCommand: await sharedPulumiCommand(),
    },
  );
  if (opts.config) await stack.setAllConfig(opts.config);
  withFewerCommands(stack);
  return {
    stack,
    workDir,
    stateDir,
    dispose: async () => {
      rmSync(workDir, { recursive: true, force: true });
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** The signature key @pulumi/pulumi and the engine mark a secret value with in a state file. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** A value of an exported (--show-secrets) state with its secrets unwrapped, and whether the value itself is one. */
export function unwrapSecrets(value: unknown): { value: unknown; secret: boolean } {
  if (Array.isArray(value)) return { value: value.map((v) => unwrapSecrets(v).value), secret: false };
  if (value === null || typeof value !== "object") return { value, secret: false };
  const fields = Object.entries(value);
  if (SECRET_SIG in value) {
    const plaintext = fields.find(([k]) => k === "plaintext")?.[1];
    return {
      value: typeof plaintext === "string" ? unwrapSecrets(JSON.parse(plaintext)).value : plaintext,
      secret: true,
    };
  }
  return { value: Object.fromEntries(fields.map(([k, v]) => [k, unwrapSecrets(v).value])), secret: false };
}

/**
 * The Automation API follows every `up` with three more CLI commands (`stack output --json`,
 * `stack output --json --show-secrets`, `stack history --json --show-secrets`) and every
 * `refresh` and `destroy` with the history: each a CLI start, and each --show-secrets one more
 * key derivation of the passphrase (PBKDF2, 1,000,000 rounds of SHA-256: 0.25 s of CPU here).
 * A test stack asks for the same facts with fewer: its outputs from one `stack export --show-secrets`
 * (the stack resource's outputs, a secret marked as the state marks it, so `secret` is what the
 * masked listing says), and its last update's summary from the history without --show-secrets (the
 * summary's config then shows secret values as [secret]; no test reads the config of a summary).
 * The command under test (up, refresh, destroy) is unchanged; only how the result is read back.
 */
export function withFewerCommands(stack: Stack): void {
  stack.outputs = async (): Promise<OutputMap> => {
    const { deployment } = (await stack.exportStack()) as {
      deployment?: { resources?: { type: string; outputs?: Record<string, unknown> }[] };
    };
    const root = deployment?.resources?.find((r) => r.type === "pulumi:pulumi:Stack");
    return Object.fromEntries(Object.entries(root?.outputs ?? {}).map(([k, v]) => [k, unwrapSecrets(v)]));
  };
  stack.info = async () => (await stack.history(1, undefined, false))[0];
}

/**
 * Asserts that `secret` is nowhere in the stack's state: not in `pulumi stack export` (without
 * --show-secrets; the Automation API's exportStack decrypts) and not in any file of the backend
 * folder or the project folder.
 */
export async function findSecretInState(t: TestStack, secret: string): Promise<string[]> {
  const { execFileSync } = await import("node:child_process");
  const { readdirSync, readFileSync, statSync } = await import("node:fs");
  const found: string[] = [];
  const exported = execFileSync("pulumi", ["stack", "export", "--stack", t.stack.name], {
    cwd: t.workDir,
    env: { ...process.env, PULUMI_BACKEND_URL: `file://${t.stateDir}`, PULUMI_CONFIG_PASSPHRASE: "voiceagent-test" },
    encoding: "utf8",
  });
  if (exported.includes(secret)) found.push("pulumi stack export");
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (readFileSync(p).includes(secret)) found.push(p);
    }
  };
  walk(t.stateDir);
  walk(t.workDir);
  return found;
}
