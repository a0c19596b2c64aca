// Cancel through the Pulumi CLI: a `pulumi up` of 50 agents on the native plugin, every agent
// create held by the emulator (a latency fault the test holds), interrupted with SIGINT as Ctrl-C
// sends it. The engine calls the plugin's Cancel (pkg/resource/deploy/deployment_executor.go
// `Execute`), which aborts the creates in flight and sends nothing more: the emulator receives no
// request after the interrupt, each create in flight fails saying the service may have made the
// agent, and the next `up` ends with one agent per declaration.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useEmulatorStack } from "../helpers/e2e.js";
import { holdDelays } from "../helpers/held-delays.js";
import { PLUGIN_BIN } from "./plugin-process.js";

const N = 50;
/** The engine's steps at once: each one an agent create the emulator holds, so none can send more. */
const PARALLEL = 4;

describe("Ctrl-C during an up on the native plugin", () => {
  const ctx = useEmulatorStack({
    name: "cancel",
    project: "named",
    program: "dist/test/plugin/fixtures/named/index.js",
    token: `cancel-${randomUUID()}`,
  });
  const env = () => ({
    ...process.env,
    PULUMI_BACKEND_URL: `file://${ctx.t.stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: "voiceagent-test",
  });

  it(`aborts the ${PARALLEL} creates in flight, sends nothing after, and the next up makes one agent per declaration`, async () => {
    appendFileSync(
      path.join(ctx.t.workDir, "Pulumi.yaml"),
      `plugins:\n  providers:\n    - name: voiceagent\n      path: ${path.dirname(PLUGIN_BIN)}\n`,
    );
    const logical = Array.from({ length: N }, (_, i) => `agent-${i}`);
    await ctx.t.stack.setConfig("named:agents", { value: logical.join(",") });
    ctx.emu.faults.add({ route: "/v1/agents/create", method: "POST", latencyMs: 1 });
    const held = holdDelays(ctx.emu.faults);

    const cli = spawn("pulumi", ["up", "--yes", "--skip-preview", "--parallel", String(PARALLEL), "--stack", "test"], {
      cwd: ctx.t.workDir,
      env: env(),
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    cli.stdout.on("data", (d: Buffer) => (output += d.toString()));
    cli.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => cli.on("exit", resolve));
    // Every step the engine may run is an agent create held by the emulator: nothing else can be sent.
    await held.untilHolding(PARALLEL);
    const sentBefore = ctx.emu.stats.total;
    cli.kill("SIGINT");
    const code = await exited;
    // Ended by the cancel (the creates in flight failed), not by a second signal or a kill.
    expect(code).not.toBe(0);
    expect(ctx.emu.stats.total).toBe(sentBefore);
    // Each create in flight says it may have been carried out, as a lost reply does.
    expect(output).toMatch(/aborted in flight: the deployment was cancelled/);
    expect(output).toMatch(/may have made the agent/);
    // What the service received was never committed: the held creates fail before their work.
    held.fail();
    expect(ctx.emu.stats.writes["POST /v1/agents/create"] ?? 0).toBe(0);

    ctx.emu.faults.clear();
    // Each create that was in flight is kept in the state as an unknown outcome (unsettled, as after
    // a lost reply): a plain up sends nothing for it and says to refresh. A refreshing up settles
    // each from a complete listing (none was made) and makes it.
    const up = await ctx.t.stack.up({ refresh: true });
    const ids = Object(up.outputs.ids?.value) as Record<string, string>;
    expect(Object.keys(ids).sort()).toEqual([...logical].sort());
    const mine = (await ctx.client.agents.list.all()).filter((a) => /^You answer for agent-\d+\.$/.test(a.prompt));
    expect(mine.length).toBe(N);
    expect(new Set(mine.map((a) => a.id))).toEqual(new Set(Object.values(ids)));
  }, 300_000);
});
