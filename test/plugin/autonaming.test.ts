// Autonaming through the Pulumi CLI on the native plugin: an agent the program leaves unnamed gets
// its logical name (no config), the name `pulumi:autonaming` proposes (a pattern) or enforces, or
// none (mode disabled); a name the program writes wins; an agent keeps the name it was created
// with whatever the config says later; and the name a preview shows is the one `up` sends. Each
// name is read back from the emulator.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { changes, useEmulatorStack } from "../helpers/e2e.js";
import { PLUGIN_BIN } from "./plugin-process.js";

const run = promisify(execFile);
const token = `autonaming-${randomUUID()}`;

describe("autonaming of the native plugin's agents", () => {
  const ctx = useEmulatorStack({
    name: "autonaming",
    project: "named",
    program: "dist/test/plugin/fixtures/named/index.js",
    token,
    api: "2024",
    // A voice of the account: the 2024 API has no default voice type to make one with.
    before: async ({ emu }) => ({ "named:voice": { value: String(emu.seeds.get(token)?.voices[0]) } }),
  });
  /** The service's name of each agent, by its logical name. */
  const names = async (ids: unknown): Promise<Record<string, string | null | undefined>> => {
    const byName = Object(ids) as Record<string, string>;
    const out: Record<string, string | null | undefined> = {};
    for (const [logical, id] of Object.entries(byName)) out[logical] = (await ctx.client.agents.get(id)).name;
    return out;
  };
  const up = async (agents: string, explicit?: string) => {
    await ctx.t.stack.setConfig("named:agents", { value: agents });
    if (explicit) await ctx.t.stack.setConfig("named:explicit", { value: explicit });
    const r = await ctx.t.stack.up();
    return { changed: changes(r.summary.resourceChanges ?? {}), names: await names(r.outputs.ids?.value) };
  };
  const pulumi = (...args: string[]) =>
    run("pulumi", [...args, "--stack", "test"], {
      cwd: ctx.t.workDir,
      env: {
        ...process.env,
        PULUMI_BACKEND_URL: `file://${ctx.t.stateDir}`,
        PULUMI_CONFIG_PASSPHRASE: "voiceagent-test",
      },
      maxBuffer: 1e8,
    }).catch((e: { stdout?: string; stderr?: string }) => {
      throw new Error(`pulumi ${args.join(" ")}: ${e.stdout ?? ""}${e.stderr ?? ""}`);
    });
  /** Sets `pulumi:autonaming` to these settings alone (`enforce` as a boolean, as the engine reads it). */
  const autonaming = async (settings: Record<string, string>) => {
    await pulumi("config", "rm", "pulumi:autonaming").catch(() => undefined);
    for (const [key, value] of Object.entries(settings))
      await pulumi(
        "config",
        "set",
        "--path",
        `pulumi:autonaming.${key}`,
        value,
        ...(key === "enforce" ? ["--type", "bool"] : []),
      );
  };

  it("names each new agent as configured, keeps every agent's name, and up sends the name its preview showed", async () => {
    appendFileSync(
      path.join(ctx.t.workDir, "Pulumi.yaml"),
      `plugins:\n  providers:\n    - name: voiceagent\n      path: ${path.dirname(PLUGIN_BIN)}\n`,
    );
    // No config: the logical name, in the preview and then on the service.
    await ctx.t.stack.setConfig("named:agents", { value: "first" });
    const { stdout } = await pulumi("preview", "--json");
    const steps = (JSON.parse(stdout) as { steps: { urn: string; newState?: { inputs?: { name?: string } } }[] }).steps;
    const previewed = steps.find((s) => s.urn.endsWith("voiceagent:index:Agent::first"))?.newState?.inputs?.name;
    expect(previewed).toBe("first");
    let r = await up("first");
    expect(r.names).toEqual({ first: previewed });

    // A pattern proposes the name of a new agent; the one made before keeps its name (nothing to update).
    await autonaming({ pattern: "${name}-${hex(4)}" });
    r = await up("first,second");
    expect(r.changed).toEqual({ create: 1 });
    expect(r.names.first).toBe("first");
    expect(r.names.second).toMatch(/^second-[0-9a-f]{4}$/);

    // Enforced: the pattern's name; a name the program writes still wins.
    await autonaming({ pattern: "team-${name}", enforce: "true" });
    r = await up("first,second,third", "Front desk");
    expect(r.changed).toEqual({ create: 2 });
    expect(r.names).toMatchObject({ first: "first", third: "team-third", explicit: "Front desk" });

    // Disabled: no name (the service's own), and none given to an agent made before either.
    await autonaming({ mode: "disabled" });
    r = await up("first,second,third,fourth");
    expect(r.changed).toEqual({ create: 1 });
    expect(r.names.fourth ?? undefined).toBeUndefined();
    expect(r.names).toMatchObject({ first: "first", third: "team-third" });
  }, 300_000);
});
