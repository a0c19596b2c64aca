// A Go program on the native provider: examples/go built against the SDK module as a module proxy
// serves it (packed from sdk/, not through the repository's replace directive), run through its
// Automation API runner (`go run . up`) and through the CLI's language host (`pulumi preview`),
// which runs the binary the setup built, with the plugin the CLI downloads from the release folder
// and no `node` on PATH.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
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
/** The program's binary, built once by the setup. */
let bin = "";
/** Where examples/go's main reads its config: the hooks of the current setup's and the fleet's programs go after it. */
const HOOK = '\tcfg := config.New(ctx, "")\n';

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
    // The program with test/sdk/current_setup.go and test/sdk/fleet_program.go beside it, each
    // reached only through its config key (`current`, `fleet`), which the example's own scenario
    // never sets: one build for every test (a build links the Pulumi SDK: tens of seconds).
    const main = path.join(project, "main.go");
    const original = readFileSync(main, "utf8");
    const hooked = original.replace(
      HOOK,
      `${HOOK}\tif cfg.Get("current") != "" {\n\t\treturn currentSetup(ctx, cfg)\n\t}\n` +
        `\tif cfg.Get("fleet") != "" {\n\t\treturn fleetProgram(ctx)\n\t}\n`,
    );
    if (hooked === original) throw new Error(`examples/go/main.go no longer has the line ${JSON.stringify(HOOK)}`);
    writeFileSync(main, hooked);
    for (const file of ["current_setup.go", "fleet_program.go"])
      writeFileSync(path.join(project, file), readFileSync(path.join(REPO_ROOT, "test", "sdk", file)));
    bin = path.join(tmp, "bin", "voiceagent-go");
    await must("go", ["build", "-o", bin, "."], project, env);
    // `pulumi preview` runs that binary through the CLI's language host (the runtime's `binary`
    // option) instead of building the program again: a build links the Pulumi SDK. The other
    // commands run through the program's runner: the language host also asks `go list` for the
    // module's packages before each command, which costs more than the runner's own CLI starts.
    const manifest = path.join(project, "Pulumi.yaml");
    const yaml = readFileSync(manifest, "utf8");
    const prebuilt = yaml.replace(/^runtime: go$/m, `runtime:\n  name: go\n  options:\n    binary: ${bin}`);
    if (prebuilt === yaml) throw new Error("examples/go/Pulumi.yaml no longer says `runtime: go`");
    writeFileSync(manifest, prebuilt);
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

  // Given `current`, the program declares the current API's setup with the SDK's nested structs
  // (test/sdk/current_setup.go). The hand edits a refresh sees and an up --refresh puts back are
  // the plugin's Read and Diff: test/yaml/yaml.test.ts's run of this scenario proves them.
  currentSetupScenario(sdkDriver(ctx, async () => async () => undefined, { handEdits: false }));

  // Given `fleet`, the program declares the fleet with the SDK's generated Fleet
  // (test/sdk/fleet_program.go), as docs/fleet.md shows, which the plugin serves.
  it("a fleet in the stack config read into the generated Fleet: a number stored as a number fails before sending anything; \
up makes it under the component, a preview is empty, destroy", async () => {
    const number = ctx.emu.seeds.get(ctx.token)!.numbers.at(-1)!;
    try {
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
      // What a refreshing preview adds, the plugin's Read of the served children, is the plugin's whatever
      // the language: test/sdk/python.test.ts's served Fleet (moved from 0.4.0) proves it empty, and
      // test/yaml/yaml.test.ts's served Fleet that it sees a hand edit.
      expect(changed(await ctx.summary("preview"))).toEqual({});
      expect(ctx.emu.stats.writes).toEqual({});
      await ctx.summary("destroy");
    } finally {
      await ctx.pulumi("config", "rm", "fleet");
    }
  }, 180_000);
});
