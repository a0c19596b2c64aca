// The lines program (fixtures/lines) on a stack of its own against an emulator of its own, with
// the steps both lines files take: deploy a layout of lines and purchases, ask what a number is
// bound to, and check that the service is exactly as declared. Each file builds its own, so the
// two files run side by side (one per vitest worker) instead of one long chain of steps.
import type { UpOptions } from "@pulumi/pulumi/automation/index.js";
import { expect } from "vitest";
import { useEmulatorStack, type EmulatorStack } from "../helpers/e2e.js";

/** Numbers the emulator seeds for its first token (emulator/seed.ts). */
export const [X, Y, Z] = ["+15550010001", "+15550010002", "+15550010003"];

/** One line of the layout: a PhoneNumber binding `number` to agent a or b. */
export type Line = { name: string; number: string; agent: "a" | "b"; grouped?: boolean };

/** A lines stack and its steps. */
export interface LinesStack {
  ctx: EmulatorStack;
  /** The agents' ids after the last deploy. */
  agents: Record<string, string>;
  /** How many requests the emulator has served on `route` ("POST /v1/numbers/update"). */
  requests(route: string): number;
  deploy(layout: Line[], purchases?: unknown[], opts?: UpOptions): ReturnType<EmulatorStack["t"]["stack"]["up"]>;
  boundTo(number: string): Promise<string | undefined>;
  /** `preview --refresh --expect-no-changes` passes: the service is exactly as declared. */
  expectConverged(): Promise<void>;
}

/** Registers the hooks of a lines stack named `name` (its token is `token`). */
export function linesStack(name: string, token: string): LinesStack {
  const ctx = useEmulatorStack({ name, project: "lines", program: "dist/test/e2e/fixtures/lines/index.js", token });
  const agents: Record<string, string> = {};
  return {
    ctx,
    agents,
    requests: (route) => ctx.emu.stats.byRoute[route] ?? 0,
    async deploy(layout, purchases = [], opts = {}) {
      await ctx.t.stack.setAllConfig({
        "lines:layout": { value: JSON.stringify(layout) },
        "lines:purchases": { value: JSON.stringify(purchases) },
      });
      const up = await ctx.t.stack.up(opts);
      agents.a = String(up.outputs.agentA?.value);
      agents.b = String(up.outputs.agentB?.value);
      return up;
    },
    boundTo: async (number) => (await ctx.client.numbers.get(number)).inbound_agent?.id,
    async expectConverged() {
      await expect(ctx.t.stack.preview({ refresh: true, expectNoChanges: true })).resolves.toBeDefined();
    },
  };
}
