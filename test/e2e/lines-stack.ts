// The lines program (fixtures/lines) on a stack of its own against an emulator of its own, with
// the steps both lines files take: deploy a layout of lines and purchases, ask what a number is
// bound to, and check that the service is exactly as declared. Each file builds its own, so the
// two files run side by side (one per vitest worker) instead of one long chain of steps.
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

/** What a deploy's `pulumi up` printed, and the stack's outputs after it. */
export interface Deployed {
  stdout: string;
  stderr: string;
  outputs: Record<string, unknown>;
}

/** A lines stack and its steps. */
export interface LinesStack {
  ctx: EmulatorStack;
  /** The agents' ids after the last deploy. */
  agents: Record<string, string>;
  /** How many requests the emulator has served on `route` ("POST /v1/numbers/update"). */
  requests(route: string): number;
  /**
   * `pulumi up` of the layout (limited to `target` URNs when given); rejects with what the CLI
   * printed when it fails.
   */
  deploy(layout: Line[], purchases?: unknown[], opts?: { target?: string[] }): Promise<Deployed>;
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
  return {
    ctx,
    agents,
    requests: (route) => ctx.emu.stats.byRoute[route] ?? 0,
    // One `pulumi up` taking the layout with --config (which saves it in the stack's config, as
    // `config set` would) and one `stack output`: not the Automation API's config set-all before
    // the up and its two output reads and history read after it.
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
      const read = await pulumi("stack", "output", "--json");
      if (read.code !== 0) throw new Error(`pulumi stack output exited ${read.code}:\n${read.stderr}`);
      const outputs = JSON.parse(read.stdout) as Record<string, unknown>;
      agents.a = String(outputs.agentA);
      agents.b = String(outputs.agentB);
      return { stdout: up.stdout, stderr: up.stderr, outputs };
    },
    async lastChanges() {
      const read = await pulumi("stack", "history", "--json", "--page-size", "1");
      if (read.code !== 0) throw new Error(`pulumi stack history exited ${read.code}:\n${read.stderr}`);
      const [last] = JSON.parse(read.stdout) as { resourceChanges?: Record<string, number> }[];
      return changes(last?.resourceChanges ?? {});
    },
    boundTo: async (number) => (await ctx.client.numbers.get(number)).inbound_agent?.id,
    async expectConverged() {
      await expect(ctx.t.stack.preview({ refresh: true, expectNoChanges: true })).resolves.toBeDefined();
    },
  };
}
