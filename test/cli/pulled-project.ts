// Where a pulled project is written and run, and its own file-backend stack.
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../helpers/pulumi-stack.js";
import { run, type CliRun } from "./run-cli.js";

/** A folder for `voiceagent pull --out`, and the backend folder its stack will use. */
export interface PulledProject {
  dir: string;
  /** PULUMI_BACKEND_URL and PULUMI_CONFIG_PASSPHRASE for every pulumi command on this project. */
  env: Record<string, string>;
  dispose(): void;
}

/**
 * A place to pull into. For now a folder under `.pulumi-state/work`, where `pulumi-voiceagent`
 * and `@pulumi/pulumi` resolve through the repository's node_modules and the Pulumi runtime's
 * ts-node uses the repository's typescript. When test/helpers/consumer.ts (branch `packaging`)
 * lands, `installDependencies` becomes its one call: the packed tarball installed into a
 * folder outside the repository, as users get it.
 */
export function pulledProject(name: string): PulledProject {
  const id = `${name}-${randomUUID().slice(0, 8)}`;
  const dir = path.join(ROOT, ".pulumi-state", "work", id);
  const stateDir = path.join(ROOT, ".pulumi-state", "backends", id);
  mkdirSync(stateDir, { recursive: true });
  return {
    dir,
    env: { PULUMI_BACKEND_URL: `file://${stateDir}`, PULUMI_CONFIG_PASSPHRASE: "voiceagent-test" },
    dispose: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** Makes the pulled project's dependencies resolvable (see {@link pulledProject}): nothing to do yet. */
export async function installDependencies(_project: PulledProject): Promise<void> {}

/** `pulumi <args>` in the pulled project, on its backend, as a pipeline's step runs it; `env` is added. Throws unless it exits 0. */
export async function pulumiOn(p: PulledProject, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const r = await run("pulumi", [...args, "--non-interactive"], { ...p.env, ...env }, p.dir);
  if (r.code !== 0) throw new Error(`pulumi ${args[0]} ${args[1] ?? ""} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

/**
 * A stack of the pulled project (its own Pulumi.yaml), with the service's address and token (secret)
 * in config: `stack init` and one `config set-all`, as a pipeline sets a stack up (the Automation
 * API would first run `pulumi version`).
 */
export async function pulledStack(p: PulledProject, stackName: string, baseUrl: string, token: string): Promise<void> {
  await pulumiOn(p, ["stack", "init", stackName]);
  await pulumiOn(p, [
    "config",
    "set-all",
    "--stack",
    stackName,
    "--plaintext",
    `voiceagent:baseUrl=${baseUrl}`,
    "--secret",
    `voiceagent:token=${token}`,
  ]);
}
