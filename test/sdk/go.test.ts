// A Go program on the native provider: examples/go built against the SDK module as a module proxy
// serves it (packed from sdk/, not through the repository's replace directive), run through its
// Automation API runner (`go run . up`) and through our language host (`pulumi preview`), with the
// plugin the CLI downloads from the release folder and no `node` on PATH.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { REPO_ROOT, run } from "../helpers/consumer.js";
import { sdkScenario } from "./scenario.js";
import { changed, setPaths, useSdkStack } from "./sdk-stack.js";
import { currentSetupScenario, sdkDriver } from "./current-setup.js";

const MODULE = "github.com/pulumi-voiceagent/pulumi-voiceagent/sdk";
const sdkDir = path.join(REPO_ROOT, "sdk");
let version = "";
let goEnv: Record<string, string> = {};
/** The program's binary, built once by the setup (and again by the current setup's test). */
let bin = "";

/**
 * The schema's version with a prerelease naming the module's content: the module cache keeps
 * what it once downloaded per version, so a changed SDK must not reuse a version.
 */
function packedVersion(): string {
  const hash = createHash("sha256");
  const files = [
    "go.mod",
    "go.sum",
    ...readdirSync(path.join(sdkDir, "go"), { recursive: true, encoding: "utf8" }).map((f) => path.join("go", f)),
  ];
  for (const file of files.sort()) {
    const full = path.join(sdkDir, file);
    if (!file.endsWith(".go") && !file.endsWith(".json") && !file.startsWith("go.")) continue;
    hash.update(file).update(readFileSync(full));
  }
  const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, "provider/schema.json"), "utf8")) as { version: string };
  return `v${schema.version}-sdktest.h${hash.digest("hex").slice(0, 12)}`;
}

async function must(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const r = await run(cmd, args, { cwd, env });
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const ctx = useSdkStack(
  "go",
  async (tmp, project) => {
    version = packedVersion();
    const proxy = path.join(tmp, "goproxy");
    await must("bash", [path.join(REPO_ROOT, "scripts/pack-go-sdk.sh"), version, proxy], REPO_ROOT);
    const upstream = (await must("go", ["env", "GOPROXY"], REPO_ROOT)).trim();
    goEnv = {
      GOPROXY: `file://${proxy},${upstream}`,
      // The packed module is in no checksum database; go.sum records its hash on first use.
      GONOSUMDB: MODULE,
      // The CLI's build flags, so the Pulumi SDK packages compiled for it come from the build cache.
      GOFLAGS: "-mod=mod -buildvcs=false -trimpath -tags=osusergo,grpcnotrace",
      GOTOOLCHAIN: "local",
      CGO_ENABLED: "0",
    };
    const env = { ...process.env, ...goEnv };
    await must("go", ["mod", "edit", `-dropreplace=${MODULE}`, `-require=${MODULE}@${version}`], project, env);
    bin = path.join(tmp, "bin", "voiceagent-go");
    await must("go", ["build", "-o", bin, "."], project, env);
    // goEnv too for `pulumi preview`, whose language host builds the program again.
    return { cmd: bin, args: [], env: goEnv };
  },
  // A cold build compiles the Pulumi Go SDK: minutes on 2 shared cores, once per machine.
  600_000,
  inject("releaseDir"),
);

describe("Go SDK (examples/go)", () => {
  it("the program is built against the packed module, not the repository's sources", async () => {
    const listed = JSON.parse(
      await must("go", ["list", "-m", "-json", MODULE], ctx.dir, { ...process.env, ...goEnv }),
    ) as {
      Version: string;
      Dir: string;
      Replace?: unknown;
    };
    expect(listed.Version).toBe(version);
    expect(listed.Replace).toBeUndefined();
    expect(listed.Dir.startsWith(sdkDir)).toBe(false);
  });

  sdkScenario(ctx, true);

  // The same program with test/sdk/current_setup.go beside it: given `current`, it declares the
  // current API's setup with the SDK's nested structs (rebuilt incrementally: the SDK is compiled).
  currentSetupScenario(
    sdkDriver(ctx, async () => {
      const main = path.join(ctx.dir, "main.go");
      const setup = path.join(ctx.dir, "current_setup.go");
      const original = readFileSync(main, "utf8");
      const hook = '\tcfg := config.New(ctx, "")\n';
      const withSetup = original.replace(
        hook,
        `${hook}\tif cfg.Get("current") != "" {\n\t\treturn currentSetup(ctx, cfg)\n\t}\n`,
      );
      expect(withSetup).not.toBe(original);
      writeFileSync(main, withSetup);
      writeFileSync(setup, readFileSync(path.join(REPO_ROOT, "test", "sdk", "current_setup.go")));
      await must("go", ["build", "-o", bin, "."], ctx.dir, { ...process.env, ...goEnv });
      // The sources back as they were; the binary keeps the setup (only config `current` reaches it).
      return async () => {
        writeFileSync(main, original);
        rmSync(setup);
      };
    }),
  );

  // The same program with test/sdk/fleet_program.go beside it: given `fleet`, it declares the
  // fleet with the SDK's generated Fleet, as docs/fleet.md shows, which the plugin serves.
  it("a fleet in the stack config read into the generated Fleet: a number stored as a number fails before sending anything; \
up makes it under the component, a preview and a refreshing preview are empty, destroy", async () => {
    const main = path.join(ctx.dir, "main.go");
    const file = path.join(ctx.dir, "fleet_program.go");
    const original = readFileSync(main, "utf8");
    const hook = '\tcfg := config.New(ctx, "")\n';
    const withFleet = original.replace(
      hook,
      `${hook}\tif cfg.Get("fleet") != "" {\n\t\treturn fleetProgram(ctx)\n\t}\n`,
    );
    expect(withFleet).not.toBe(original);
    const number = ctx.emu.seeds.get(ctx.token)!.numbers.at(-1)!;
    try {
      writeFileSync(main, withFleet);
      writeFileSync(file, readFileSync(path.join(REPO_ROOT, "test", "sdk", "fleet_program.go")));
      await must("go", ["build", "-o", bin, "."], ctx.dir, { ...process.env, ...goEnv });
      await setPaths(
        ctx,
        "fleet.voices.warm.voiceName=alloy",
        "fleet.voices.warm.pitch=0",
        "fleet.voices.warm.rate=1",
        "fleet.agents.support.prompt=Hello",
        "fleet.agents.support.voice=warm",
        `fleet.lines.main.number=${number}`,
        "fleet.lines.main.agent=support",
      );
      // `config set --path` stores +15551234567 as a number, which Go's JSON reading of the
      // config into FleetSpec refuses (Number is a string), before anything is sent.
      ctx.emu.resetStats();
      const refused = await ctx.program("up");
      expect(refused.code).not.toBe(0);
      expect(refused.stdout + refused.stderr).toContain("cannot unmarshal number into Go struct field FleetLine");
      expect(ctx.emu.stats.total).toBe(0);
      await ctx.pulumi("config", "set", "--path", "--type", "string", "fleet.lines.main.number", number);
      const up = await ctx.summary("up");
      const urns = (
        JSON.parse(await ctx.pulumi("stack", "export")) as { deployment: { resources: { urn: string }[] } }
      ).deployment.resources
        .map((r) => r.urn.split("::").slice(2).join("::"))
        .filter((u) => u.includes("Fleet"))
        .sort();
      expect(urns).toEqual([
        "voiceagent:index:Fleet$voiceagent:index:Agent::fleet-support",
        "voiceagent:index:Fleet$voiceagent:index:PhoneNumber::fleet-main",
        "voiceagent:index:Fleet$voiceagent:index:Voice::fleet-warm",
        "voiceagent:index:Fleet::fleet",
      ]);
      // The line binds the number to the fleet's agent, whose id the component's `ids` gives.
      const bound = (await ctx.client.numbers.get(number)).inbound_agent?.id ?? "";
      expect(bound).not.toBe("");
      expect(up.outputs.ids).toMatchObject({ agents: { support: bound } });
      ctx.emu.resetStats();
      await ctx.pulumi("preview", "--expect-no-changes", "--diff");
      // The refreshing preview through the program's own binary (the CLI's would build it again).
      expect(changed(await ctx.summary("preview", "--refresh"))).toEqual({});
      expect(ctx.emu.stats.writes).toEqual({});
      await ctx.summary("destroy");
    } finally {
      writeFileSync(main, original);
      rmSync(file, { force: true });
      await ctx.pulumi("config", "rm", "fleet");
    }
  });
});
