// The lines program (fixtures/lines) on a stack of its own against an emulator of its own, with
// the steps both lines files take: deploy a layout of lines and purchases, ask what a number is
// bound to, and check that the service is exactly as declared. Each file builds its own, so the
// two files run side by side (one per vitest worker) instead of one long chain of steps.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { run } from "../helpers/consumer.js";
import { changes, useEmulatorStack, type EmulatorStack } from "../helpers/e2e.js";

/** Numbers the emulator seeds for its first token (emulator/seed.ts). */
export const [X, Y, Z] = ["+15550010001", "+15550010002", "+15550010003"];

/**
 * Each step's time limit. A step runs up to four engine runs (`pulumi up`, `preview --refresh`),
 * each starting the CLI, the program and the provider, and a busy machine slows every one of them:
 * at a load of 10 a step took over vitest's 60 s default, which failed it and started the next step
 * while its commands still ran on the same stack. The limit is per step, not per file.
 */
export const STEP = { timeout: 240_000 };

/** One line of the layout: a PhoneNumber binding `number` to agent a or b. */
export type Line = { name: string; number: string; agent: "a" | "b"; grouped?: boolean };

/** What a deploy's `pulumi up` printed. */
export interface Deployed {
  stdout: string;
  stderr: string;
}

/** A resource of the stack's state, as the checkpoint records it (the fields the tests read). */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  delete?: boolean;
  outputs?: Record<string, unknown>;
}

/** A lines stack and its steps. */
export interface LinesStack {
  ctx: EmulatorStack;
  /**
   * The agents' ids, read after the first deploy: every layout declares the same two agents, so
   * they keep their ids (a replaced agent would fail the next comparison with the ids read here).
   */
  agents: Record<string, string>;
  /** How many requests the emulator has served on `route` ("POST /v1/numbers/update"). */
  requests(route: string): number;
  /**
   * `pulumi up` of the layout (limited to `target` URNs when given); rejects with what the CLI
   * printed when it fails.
   */
  deploy(layout: Line[], purchases?: unknown[], opts?: { target?: string[] }): Promise<Deployed>;
  /**
   * The resources of the stack's checkpoint in the file backend: what `pulumi stack export` prints
   * (secrets encrypted), read without a CLI start and its passphrase's key derivation.
   */
  resources(): StateResource[];
  /** Rewrites the checkpoint's resources, as a killed run leaves them (no `stack import`). */
  editResources(edit: (resources: StateResource[]) => void): void;
  /** The stack's outputs (the Stack resource's, in the checkpoint). */
  outputs(): Record<string, unknown>;
  /** `pulumi refresh` (fails the test when it fails). */
  refresh(): Promise<void>;
  /** `pulumi state unprotect` of the resource named `name`. */
  unprotect(name: string): Promise<void>;
  /** The change counts (without "same") the stack's history recorded for the last update. */
  lastChanges(): Promise<Record<string, number>>;
  boundTo(number: string): Promise<string | undefined>;
  /** `preview --refresh --expect-no-changes` passes: the service is exactly as declared. */
  expectConverged(): Promise<void>;
}

/** Registers the hooks of a lines stack named `name` (its token is `token`). */
export function linesStack(name: string, token: string): LinesStack {
  const ctx = useEmulatorStack({ name, project: "lines", program: "dist/test/e2e/fixtures/lines/index.js", token });
  const agents: Record<string, string> = {};
  /** The CLI on the stack, as the Automation API runs it (the same backend and passphrase). */
  const pulumi = (...args: string[]) =>
    run("pulumi", [...args, "--stack", ctx.t.stack.name, "--non-interactive", "--color", "never"], {
      cwd: ctx.t.workDir,
      env: {
        ...process.env,
        PULUMI_BACKEND_URL: `file://${ctx.t.stateDir}`,
        PULUMI_CONFIG_PASSPHRASE: "voiceagent-test",
      },
    });
  /** The checkpoint the file backend keeps of the stack (its project is the program's, "lines"). */
  const checkpoint = () => path.join(ctx.t.stateDir, ".pulumi", "stacks", "lines", `${ctx.t.stack.name}.json`);
  type Checkpoint = { checkpoint: { latest?: { resources?: StateResource[] } } };
  const readCheckpoint = () => JSON.parse(readFileSync(checkpoint(), "utf8")) as Checkpoint;
  const resources = () => readCheckpoint().checkpoint.latest?.resources ?? [];
  const outputs = () => resources().find((r) => r.type === "pulumi:pulumi:Stack")?.outputs ?? {};
  const ran = async (what: string, ...args: string[]) => {
    const r = await pulumi(...args);
    if (r.code !== 0) throw new Error(`pulumi ${what} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
    return r;
  };
  return {
    ctx,
    agents,
    requests: (route) => ctx.emu.stats.byRoute[route] ?? 0,
    resources,
    editResources(edit) {
      const file = readCheckpoint();
      const latest = file.checkpoint.latest;
      if (!latest?.resources) throw new Error(`no resources in ${checkpoint()}`);
      edit(latest.resources);
      writeFileSync(checkpoint(), JSON.stringify(file));
    },
    outputs,
    async refresh() {
      await ran("refresh", "refresh", "--yes", "--skip-preview");
    },
    async unprotect(name) {
      const urn = resources().find((r) => r.urn.endsWith(`::${name}`))?.urn;
      if (!urn) throw new Error(`no resource named ${name} in the state`);
      await ran("state unprotect", "state", "unprotect", urn, "--yes");
    },
    // One `pulumi up` taking the layout with --config (which saves it in the stack's config, as
    // `config set` would): not the Automation API's config set-all before the up and its two output
    // reads and history read after it. The outputs a test needs are in the checkpoint.
    async deploy(layout, purchases = [], opts = {}) {
      const up = await pulumi(
        "up",
        "--yes",
        "--skip-preview",
        "--config",
        `lines:layout=${JSON.stringify(layout)}`,
        "--config",
        `lines:purchases=${JSON.stringify(purchases)}`,
        ...(opts.target ?? []).flatMap((urn) => ["--target", urn]),
      );
      if (up.code !== 0) throw new Error(`pulumi up exited ${up.code}:\n${up.stdout}\n${up.stderr}`);
      if (agents.a === undefined) {
        const { agentA, agentB } = outputs();
        agents.a = String(agentA);
        agents.b = String(agentB);
      }
      return { stdout: up.stdout, stderr: up.stderr };
    },
    async lastChanges() {
      const read = await ran("stack history", "stack", "history", "--json", "--page-size", "1");
      const [last] = JSON.parse(read.stdout) as { resourceChanges?: Record<string, number> }[];
      return changes(last?.resourceChanges ?? {});
    },
    boundTo: async (number) => (await ctx.client.numbers.get(number)).inbound_agent?.id,
    async expectConverged() {
      await expect(ctx.t.stack.preview({ refresh: true, expectNoChanges: true })).resolves.toBeDefined();
    },
  };
}
