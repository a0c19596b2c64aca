// A Python program on the native provider: examples/python with pulumi_voiceagent installed from
// the wheel that `npm run pack:python` builds (not from sdk/python), run through its Automation
// API runner (`python __main__.py up`: the example's scenario) and through our language host
// (`pulumi preview`, and the later tests' commands, which need none of the runner's own CLI
// starts), with the plugin the CLI downloads from the release folder and no `node` on PATH.
import { copyFileSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { REPO_ROOT, run } from "../helpers/consumer.js";
import { sdkScenario } from "./scenario.js";
import { installWheel, must, python } from "./wheel.js";
import { changed, setPaths, useSdkStack } from "./sdk-stack.js";
import { GENERATION_PROBE } from "../helpers/generation-probe.js";
import { currentSetupScenario, sdkDriver } from "./current-setup.js";

let site = "";
const ctx = useSdkStack(
  "python",
  async (tmp) => {
    const installed = await installWheel(tmp);
    site = installed.site;
    console.log(`pulumi_voiceagent wheel: ${path.basename(installed.wheel)}, ${statSync(installed.wheel).size} bytes`);
    return installed;
  },
  undefined,
  inject("releaseDir"),
);

describe("Python SDK (examples/python)", () => {
  // 3.269.0: what CHANGELOG's "Upgrading from 0.4.0" tells Python users the SDK now requires.
  it("the program imports pulumi_voiceagent from the installed wheel, which requires pulumi 3.269.0 or newer, below 4", async () => {
    const probe = await run(
      python,
      [
        "-c",
        "import importlib.metadata as m, pulumi_voiceagent as v; print(v.__file__); print(m.requires('pulumi_voiceagent'))",
      ],
      { cwd: ctx.dir, env: { ...process.env, PYTHONPATH: site } },
    );
    const [file, requires] = probe.stdout.trim().split("\n");
    expect(file?.startsWith(site + path.sep)).toBe(true);
    expect(requires).toMatch(/'pulumi<4\.0\.0,>=3\.269\.0'|'pulumi>=3\.269\.0,<4\.0\.0'/);
  });

  sdkScenario(ctx, true);

  // After the scenario's destroy: the same program, given a fleet in its stack config, declares it
  // with the SDK's generated Fleet, which the plugin serves (it checks the document there).
  it(`a fleet in the stack config: a bad one fails preview naming its paths with 0 requests, a good one previews its creates reading only \
the generation`, async () => {
    const main = path.join(ctx.dir, "__main__.py");
    const original = readFileSync(main, "utf8");
    const withFleet = original.replace(
      "    config = pulumi.Config()\n",
      [
        "    config = pulumi.Config()",
        '    if config.get("fleet") is not None:',
        '        pulumi.export("ids", voiceagent.Fleet("fleet", **voiceagent.fleet_from_config()).ids)',
        "        return",
        "",
      ].join("\n"),
    );
    expect(withFleet).not.toBe(original);
    writeFileSync(main, withFleet);
    const set = (...pairs: string[]) => setPaths(ctx, ...pairs);
    try {
      await set(
        "fleet.voices.warm.voiceName=alloy",
        "fleet.voices.warm.pitch=0",
        "fleet.voices.warm.rate=1",
        "fleet.agents.support.prompt=Hello",
        "fleet.agents.support.voice=warm2",
        "fleet.agents.support.promt=typo",
        "fleet.lines.main.agent=support",
        "fleet.lines.main.buy.areaCode=415",
      );
      ctx.emu.resetStats();
      const bad = await ctx.attempt("preview");
      expect(bad.code).not.toBe(0);
      const printed = bad.stdout + bad.stderr;
      expect(printed).toContain('fleet.agents.support.voice: no voice named "warm2" (voices: warm)');
      expect(printed).toContain("fleet.agents.support.promt: unknown key");
      expect(printed).toContain("Pulumi.test.yaml");
      expect(ctx.emu.stats.total).toBe(0);

      await ctx.pulumi("config", "rm", "--path", "fleet.agents.support.promt");
      await set("fleet.agents.support.voice=warm");
      ctx.emu.resetStats();
      expect(changed(await ctx.cli("preview"))).toEqual({ create: 6 });
      // voiceagent:api is auto: the plugin asks the generation once (one page of the agent list).
      expect(ctx.emu.stats.byRoute).toEqual({ [GENERATION_PROBE]: 1 });
    } finally {
      writeFileSync(main, original);
      await ctx.pulumi("config", "rm", "fleet");
    }
  }, 180_000);

  // A stack the 0.4.0 Python Fleet made: test/sdk/fleet-0.4.0 holds that SDK's fleet.py and
  // _fleet_schema.py byte for byte (`git show 9a82849:sdk/python/pulumi_voiceagent/<file>`, main
  // before the served component), which registered `voiceagent:fleet:Fleet` in the program with
  // its children `<name>-<key>` under it. Put beside today's generated classes (their URNs are the
  // same), they make the old stack; the program then takes today's generated Fleet.
  it("a Fleet stack made by the 0.4.0 Python Fleet moves to the served component: a refreshing preview is empty, \
up changes nothing at the service", async () => {
    const main = path.join(ctx.dir, "__main__.py");
    const original = readFileSync(main, "utf8");
    const pkg = path.join(site, "pulumi_voiceagent");
    const old = { "fleet_0_4_0.py": "fleet.py", "_fleet_schema.py": "_fleet_schema.py" };
    for (const [to, from] of Object.entries(old))
      copyFileSync(path.join(REPO_ROOT, "test/sdk/fleet-0.4.0", from), path.join(pkg, to));
    const program = (fleet: string) =>
      original.replace(
        "    config = pulumi.Config()\n",
        ["    config = pulumi.Config()", '    if config.get("fleet") is not None:', fleet, "        return", ""].join(
          "\n",
        ),
      );
    const before = program(
      [
        "        from pulumi_voiceagent.fleet_0_4_0 import Fleet as OldFleet, fleet_from_config as old_config",
        '        pulumi.export("ids", OldFleet("fleet", **old_config()).ids)',
      ].join("\n"),
    );
    expect(before).not.toBe(original);
    try {
      writeFileSync(main, before);
      await setPaths(
        ctx,
        "fleet.voices.warm.voiceName=alloy",
        "fleet.voices.warm.pitch=0",
        "fleet.voices.warm.rate=1",
        "fleet.agents.support.prompt=Hello",
        "fleet.agents.support.voice=warm",
        "fleet.lines.main.agent=support",
        "fleet.lines.main.buy.areaCode=415",
        "fleet.lines.main.protect=false",
      );
      await ctx.cli("up");
      // The types of the fleet's resources in the state, each with its parents' (the URN's third part).
      const types = async () =>
        (
          JSON.parse(await ctx.pulumi("stack", "export")) as { deployment: { resources?: { urn: string }[] } }
        ).deployment
          .resources!.map((r) => r.urn.split("::")[2] ?? "")
          .filter((t) => t.includes("Fleet"))
          .sort();
      const under = (fleet: string) =>
        [
          fleet,
          ...["Agent", "PhoneNumber", "PurchasedNumber", "Voice"].map((k) => `${fleet}$voiceagent:index:${k}`),
        ].sort();
      // The old component and its children, as the 0.4.0 SDK registered them.
      expect(await types()).toEqual(under("voiceagent:fleet:Fleet"));

      writeFileSync(
        main,
        program('        pulumi.export("ids", voiceagent.Fleet("fleet", **voiceagent.fleet_from_config()).ids)'),
      );
      ctx.emu.resetStats();
      // No plain preview: the up below plans what it would, and changes nothing.
      await ctx.pulumi("preview", "--refresh", "--expect-no-changes", "--diff");
      expect(ctx.emu.stats.writes).toEqual({});
      // The first up after the upgrade only rewrites the URNs in the state.
      expect(changed(await ctx.cli("up"))).toEqual({});
      expect(ctx.emu.stats.writes).toEqual({});
      expect(await types()).toEqual(under("voiceagent:index:Fleet"));
      await ctx.cli("destroy");
    } finally {
      writeFileSync(main, original);
      for (const to of Object.keys(old)) rmSync(path.join(pkg, to), { force: true });
      await ctx.pulumi("config", "rm", "fleet");
    }
  }, 180_000);

  // The same program, given `current`, declares the current API's setup (test/sdk/current_setup.py),
  // its actions too. The hand edits a refresh sees and an up --refresh puts back are the plugin's
  // Read and Diff, whatever the language: test/yaml/yaml.test.ts's run of this scenario proves them
  // (the same setup and actions, in YAML).
  currentSetupScenario(
    sdkDriver(
      ctx,
      async () => {
        const main = path.join(ctx.dir, "__main__.py");
        const original = readFileSync(main, "utf8");
        const setup = readFileSync(path.join(REPO_ROOT, "test", "sdk", "current_setup.py"), "utf8");
        const withSetup = original
          .replace(
            "    config = pulumi.Config()\n",
            '    config = pulumi.Config()\n    if config.get("current"):\n        current_setup(config)\n        return\n',
          )
          .replace("\n\ndef _first_number", `${setup}\n\ndef _first_number`);
        expect(withSetup).not.toBe(original);
        writeFileSync(main, withSetup);
        return async () => writeFileSync(main, original);
      },
      {
        // The plain dict's misspelt key reaches the check as it is, with the key the type lacks.
        misspelt: /llmFallback has no key "modl_name": its keys are provider, modelName/,
        actions: true,
        handEdits: false,
        // The runner is proven by the scenario above: the setup runs through the CLI's language host.
        cli: true,
      },
    ),
  );
});

describe("a Python program on an SDK newer than the plugin", () => {
  const pluginVersion = (
    JSON.parse(readFileSync(path.join(REPO_ROOT, "provider/package.json"), "utf8")) as { version: string }
  ).version;
  let sdkVersion = "";
  // What a later release's SDK is: the schema one minor version on, with one more Agent input,
  // which the program uses.
  const newer = useSdkStack("python", async (tmp, project) => {
    const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, "provider/schema.json"), "utf8"));
    const [major, minor] = String(schema.version).split(".").map(Number);
    sdkVersion = `${major}.${(minor ?? 0) + 1}.0`;
    schema.version = sdkVersion;
    schema.resources["voiceagent:index:Agent"].inputProperties.sentiment = {
      type: "string",
      description: "A later input.",
    };
    writeFileSync(path.join(tmp, "schema.json"), JSON.stringify(schema));
    await must(
      "bash",
      [path.join(REPO_ROOT, "scripts/gen-sdks.sh"), path.join(tmp, "sdk"), path.join(tmp, "schema.json")],
      REPO_ROOT,
    );
    const main = path.join(project, "__main__.py");
    writeFileSync(main, readFileSync(main, "utf8").replace("initial_message=", 'sentiment="calm", initial_message='));
    return installWheel(tmp, path.join(tmp, "sdk", "python"));
  });

  it("fails at preview with one line naming both versions, sending nothing", async () => {
    newer.emu.resetStats();
    const preview = await newer.program("preview");
    expect(preview.code).not.toBe(0);
    const lines = (preview.stdout + preview.stderr).split("\n");
    expect(lines.filter((line) => line.includes(sdkVersion) && line.includes(pluginVersion))).not.toEqual([]);
    expect(newer.emu.stats.writes).toEqual({});
  });
});
