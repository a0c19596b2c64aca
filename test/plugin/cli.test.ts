// The bundled plugin under the real Pulumi CLI: found through Pulumi.yaml `plugins.providers`,
// up / preview / destroy against the emulator, a note shown in `pulumi up` output, a create whose
// outcome is unknown shown as one message, and the file
// installed with `pulumi plugin install --file` serving its schema to `pulumi package get-schema`.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { changes, printedBy, useEmulatorStack } from "../helpers/e2e.js";
import { findSecretInState } from "../helpers/pulumi-stack.js";
import { REPO_ROOT } from "../helpers/consumer.js";
import { PLUGIN_BIN } from "./plugin-process.js";

const TOKEN = `native-${randomUUID()}`;
const PROMPT = `a secret prompt ${randomUUID()}`;
const VERSION = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, "provider", "package.json"), "utf8")) as { version: string }
).version;

describe("the plugin under the Pulumi CLI", () => {
  const ctx = useEmulatorStack({
    name: "native-plugin",
    program: "dist/test/plugin/fixtures/native/index.js",
    token: TOKEN,
    config: { "native:prompt": { value: PROMPT, secret: true } },
  });

  it(`up creates through it with secrets kept secret, the next preview is empty, and destroy of an agent shows the plugin's note in the up \
output`, async () => {
    appendFileSync(
      path.join(ctx.t.workDir, "Pulumi.yaml"),
      `plugins:\n  providers:\n    - name: voiceagent\n      path: ${path.dirname(PLUGIN_BIN)}\n`,
    );
    const up = await ctx.t.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toMatchObject({ create: 3 }); // the stack, the voice, the agent
    const voiceId = String(up.outputs.voiceId?.value);
    const agentId = String(up.outputs.agentId?.value);
    expect((await ctx.client.voices.get(voiceId)).voice_name).toBe("alloy");
    expect((await ctx.client.agents.get(agentId)).voice.id).toBe(voiceId);
    expect(up.outputs.voiceUser?.value).toMatch(/^[0-9a-f-]{36}$/);
    // The prompt came secret, so the plugin gives its output back secret (the engine's own rule).
    expect((await ctx.client.agents.get(agentId)).prompt).toBe(PROMPT);
    expect(await findSecretInState(ctx.t, PROMPT)).toEqual([]);
    expect(await findSecretInState(ctx.t, TOKEN)).toEqual([]);
    expect(up.stdout).not.toContain(PROMPT);

    const preview = await ctx.t.stack.preview();
    expect(changes(preview.changeSummary)).toEqual({});

    await ctx.t.stack.setConfig("native:agent", { value: "false" });
    const dropped = await ctx.t.stack.up();
    expect(changes(dropped.summary.resourceChanges ?? {})).toEqual({ delete: 1 });
    console.log(dropped.stdout);
    // Shown to the user, attached to the resource: the agent stays on the service.
    expect(dropped.stdout).toMatch(new RegExp(`voiceagent:Agent ${agentId}`));
    expect((await ctx.client.agents.get(agentId)).id).toBe(agentId);

    // The agent declared again, and its create's outcome left unknown (the reply lost after the
    // service made it, and the list unreadable): the first up fails with one message under the
    // agent, saying the service may have made it and what to run, not the engine's list of a
    // partial create's reasons (`1 error occurred: * ...`); the next up sends nothing.
    await ctx.t.stack.setConfig("native:agent", { value: "true" });
    ctx.emu.faults.add({ route: "/v1/agents/create", method: "POST", phase: "after", reset: true, count: 1 });
    ctx.emu.faults.add({ route: "/v1/agents/list", phase: "after", items: { where: {}, set: { user_id: 42 } } });
    const creates = () => ctx.emu.stats.writes["POST /v1/agents/create"] ?? 0;
    const before = creates();
    try {
      const failed = await printedBy(ctx.t.stack.up());
      const diagnostics = failed.slice(failed.indexOf("Diagnostics:"));
      const underAgent = diagnostics.slice(diagnostics.indexOf("voiceagent:index:Agent (agent):")).split("\n");
      // The first line under the agent is the whole explanation.
      expect(underAgent[1]).toMatch(/^\s*error: .*may have.*`pulumi refresh`/);
      expect(failed).not.toMatch(/error occurred/);
      const again = await printedBy(ctx.t.stack.up());
      expect(again).toMatch(/outcome of its create is unknown/);
      expect(creates() - before).toBe(1);
    } finally {
      ctx.emu.faults.clear();
    }
    await ctx.t.stack.up({ refresh: true });
    expect(creates() - before).toBe(1);
    await ctx.t.stack.destroy();
  }, 360_000);
});

describe("the plugin as one installed file", () => {
  it(`\`pulumi plugin install resource voiceagent <v> --file\` installs it alone, and \`pulumi package get-schema voiceagent\` gets its \
schema`, async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "va-plugin-home-"));
    const cwd = mkdtempSync(path.join(os.tmpdir(), "va-plugin-cwd-"));
    try {
      const env = { ...process.env, PULUMI_HOME: home, PULUMI_IGNORE_AMBIENT_PLUGINS: "true" };
      const run = promisify(execFile);
      await run("pulumi", ["plugin", "install", "resource", "voiceagent", VERSION, "--file", PLUGIN_BIN], { env, cwd });
      const { stdout } = await run("pulumi", ["package", "get-schema", "voiceagent"], { env, cwd });
      const schema = JSON.parse(stdout) as { name: string; version: string };
      expect(schema).toMatchObject({ name: "voiceagent", version: VERSION });
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
