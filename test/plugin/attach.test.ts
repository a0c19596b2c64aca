// The debugging recipe of docs/development.md: the plugin started by hand prints its port, and
// `PULUMI_DEBUG_PROVIDERS=voiceagent:<port>` makes the engine dial it instead of starting one,
// then hand it its own address through Attach (sdk/go/common/resource/plugin/provider_plugin.go
// `NewProvider`). The project names no plugin and the stack holds no credentials: only the
// process started here, given them in its environment, can serve the preview.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { useEmulatorStack } from "../helpers/e2e.js";
import { startPlugin } from "./plugin-process.js";

const run = promisify(execFile);
const TOKEN = `attach-${randomUUID()}`;

describe("the plugin started by hand", () => {
  const ctx = useEmulatorStack({
    name: "attach",
    project: "named",
    program: "dist/test/plugin/fixtures/named/index.js",
    token: TOKEN,
    credentials: "env",
  });

  it("serves `pulumi preview` run with PULUMI_DEBUG_PROVIDERS=voiceagent:<port>", async () => {
    await ctx.t.stack.setConfig("named:agents", { value: "front,back" });
    const plugin = await startPlugin([], { VOICEAGENT_BASE_URL: ctx.emu.url, VOICEAGENT_TOKEN: TOKEN });
    try {
      const port = Number(plugin.stdout().trim());
      const served = ctx.emu.stats.total;
      const { stdout } = await run("pulumi", ["preview", "--json", "--stack", "test"], {
        cwd: ctx.t.workDir,
        env: {
          ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VOICEAGENT_"))),
          PULUMI_BACKEND_URL: `file://${ctx.t.stateDir}`,
          PULUMI_CONFIG_PASSPHRASE: "voiceagent-test",
          PULUMI_IGNORE_AMBIENT_PLUGINS: "true",
          PULUMI_DEBUG_PROVIDERS: `voiceagent:${port}`,
        },
        maxBuffer: 1e8,
      });
      const steps = (JSON.parse(stdout) as { steps: { op: string; urn: string }[] }).steps;
      expect(steps.filter((s) => s.op === "create" && s.urn.includes("voiceagent:index:")).length).toBe(3);
      // Its checks asked the service which API it speaks, with the credentials only it was given.
      expect(ctx.emu.stats.total).toBeGreaterThan(served);
    } finally {
      await plugin.stop();
    }
  });
});
