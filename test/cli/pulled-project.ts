// Where a pulled project is written and run, and its own file-backend stack.
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation/index.js";
import { ROOT, withFewerCommands } from "../helpers/pulumi-stack.js";

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

/** A stack of the pulled project (its own Pulumi.yaml), with the service's address and token (secret) in config. */
export async function pulledStack(p: PulledProject, stackName: string, baseUrl: string, token: string): Promise<Stack> {
  // A new stack of a new backend: `createStack` runs `stack init` alone (createOrSelectStack first
  // runs a `stack select` that fails), and the results are read back with fewer commands.
  const stack = await LocalWorkspace.createStack({ stackName, workDir: p.dir }, { envVars: p.env });
  withFewerCommands(stack);
  await stack.setAllConfig({
    "voiceagent:baseUrl": { value: baseUrl },
    "voiceagent:token": { value: token, secret: true },
  });
  return stack;
}
