// Pulumi YAML programs on the native provider, as a user runs them: a project made from
// templates/voiceagent-yaml with no node on PATH and the plugin downloaded by the CLI from the
// release folder; then `voiceagent pull --format yaml` of a hand-made account and `pulumi import`
// into a YAML project, in the same PULUMI_HOME (one download) and against the same emulator.
import { randomUUID } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { parse, stringify } from "yaml";
import { createClient } from "pulumi-voiceagent/client";
import { CLI_BIN } from "../cli/run-cli.js";
import { REPO_ROOT, run } from "../helpers/consumer.js";
import { installedPlugins } from "../helpers/release-server.js";
import { files, TEMPLATE, useYamlStack } from "./yaml-stack.js";
import { currentSetupScenario } from "../sdk/current-setup.js";
import { type ServedFleetDriver, servedFleetScenario, servedInterfaceFleetScenario } from "../fleet/served-scenario.js";

const PROMPT = `You are the front desk of a small clinic (${randomUUID()}). Take a message.`;
const ctx = useYamlStack(inject("releaseDir"), PROMPT);
const version = (JSON.parse(readFileSync(path.join(REPO_ROOT, "provider/package.json"), "utf8")) as { version: string })
  .version;

/** Change counts without "same". */
const changed = (counts: Record<string, number> = {}) =>
  Object.fromEntries(Object.entries(counts).filter(([op, n]) => op !== "same" && n > 0));
/** The change counts of `pulumi preview --json`. */
const changes = (stdout: string) =>
  changed((JSON.parse(stdout) as { changeSummary?: Record<string, number> }).changeSummary);
/** The engine events `pulumi <args> --json` printed, one JSON object a line. */
type EngineEvent = {
  summaryEvent?: { resourceChanges?: Record<string, number> };
  diagnosticEvent?: { message: string };
};
/**
 * Runs `pulumi <args> --yes --skip-preview --json` (up, destroy): the change counts of its summary
 * event, and the messages of its diagnostics (what it printed about the resources). No preview
 * first (nothing is asserted on it: each test's previews are commands of their own), and no second
 * command for the stack's history.
 */
async function appliedWithNotes(...args: string[]): Promise<{ changes: Record<string, number>; notes: string }> {
  const events = (await ctx.must([...args, "--yes", "--skip-preview", "--json"]))
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as EngineEvent);
  const summary = events.find((e) => e.summaryEvent)?.summaryEvent;
  if (!summary) throw new Error(`pulumi ${args.join(" ")} printed no summary event`);
  const notes = events.flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent.message] : []));
  return { changes: changed(summary.resourceChanges), notes: notes.join("\n") };
}
/** The change counts of `pulumi <args> --yes` (up, destroy). */
const applied = async (...args: string[]) => (await appliedWithNotes(...args)).changes;
/** `pulumi config set-all [--path]`: several keys, each secret or not, in one command. */
async function setAll(values: Record<string, { value: string; secret?: boolean }>, opts: { path?: boolean } = {}) {
  await ctx.must([
    "config",
    "set-all",
    ...(opts.path ? ["--path"] : []),
    ...Object.entries(values).flatMap(([key, { value, secret }]) => [
      secret ? "--secret" : "--plaintext",
      `${key}=${value}`,
    ]),
  ]);
}
/** Routes received since the last reset that are not reads. */
const writes = () => Object.keys(ctx.emu.stats.byRoute).filter((r) => !r.startsWith("GET "));

describe("Pulumi YAML (templates/voiceagent-yaml)", () => {
  const seeded = () => ctx.emu.seeds.get(ctx.token)!.numbers;
  const boundTo = async (n: string) => (await ctx.client.numbers.get(n)).inbound_agent?.id ?? null;
  let agentId = "";
  /** The routes a no-change preview reads: the generation probe and the program's lookup. */
  let previewReads: string[] = [];

  it("the template names this release's plugin and asks for the token and the prompt as secrets", () => {
    const manifest = readFileSync(path.join(TEMPLATE, "Pulumi.yaml"), "utf8");
    expect(manifest).toMatch(/ {4}voiceagent:token:\n {6}description: .*\n {6}secret: true\n/);
    expect(manifest).toMatch(/ {4}prompt:\n {6}description: .*\n {6}secret: true\n/);
    const lock = parse(readFileSync(path.join(TEMPLATE, "sdks/voiceagent", `voiceagent-${version}.yaml`), "utf8"));
    const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, "provider/schema.json"), "utf8")) as {
      pluginDownloadURL: string;
    };
    expect(lock).toEqual({
      packageDeclarationVersion: 1,
      name: "voiceagent",
      version,
      downloadUrl: schema.pluginDownloadURL.replace("${VERSION}", version),
    });
  });

  it("pulumi new filled in the project's name and description and kept the package declaration", () => {
    const project = readFileSync(path.join(ctx.dir, "Pulumi.yaml"), "utf8");
    expect(project).toMatch(/^name: va-yaml\ndescription: Our front desk, in YAML\nruntime: yaml\n/);
    expect(project).not.toMatch(/\$\{PROJECT\}|\$\{DESCRIPTION\}|^template:/m);
    expect(readFileSync(path.join(ctx.dir, "sdks/voiceagent", `voiceagent-${version}.yaml`), "utf8")).toMatch(
      /^version: /m,
    );
  });

  it("runs with no `node` anywhere on PATH", async () => {
    const which = await run("which", ["node"], { cwd: ctx.dir, env: ctx.env });
    expect(which.code).not.toBe(0);
  });

  it("up binds the number to an agent speaking with alloy, whose prompt is the secret config value", async () => {
    expect(await applied("up")).toEqual({ create: 3 });
    agentId = (await ctx.must(["stack", "output", "agentId"])).trim();
    const agent = await ctx.client.agents.get(agentId);
    expect(agent.prompt).toBe(PROMPT);
    expect(agent.voice.voice_name).toBe("alloy");
    expect(await boundTo(seeded()[0]!)).toBe(agentId);
  }, 120_000);

  // A preview without --refresh compares the program with the state only: after a hand edit on the
  // service it proves what a preview right after up proves (no change, no write), and that it
  // misses the edit. That a refresh sees such an edit and an up --refresh puts it back is the
  // plugin's Read and Diff: the served Fleet's and the current setup's tests below prove both.
  it("preview --expect-no-changes passes right after up, with no write, and misses a hand edit on the service", async () => {
    await ctx.client.agents.update(agentId, { initial_message: "Edited in the console." });
    ctx.emu.resetStats();
    await ctx.must(["preview", "--expect-no-changes"]);
    expect(writes()).toEqual([]);
    previewReads = Object.keys(ctx.emu.stats.byRoute);
  }, 120_000);

  it("a rename with aliases (URN strings) keeps the line bound and the bought number active", async () => {
    const manifest = path.join(ctx.dir, "Pulumi.yaml");
    const original = readFileSync(manifest, "utf8");
    // A bought number answered by the same agent, then both lines and the number renamed.
    writeFileSync(
      manifest,
      original.replace(
        "\noutputs:\n",
        [
          "",
          "  spare:",
          "    type: voiceagent:PurchasedNumber",
          "    properties:",
          '      areaCode: "415"',
          "  spare-line:",
          "    type: voiceagent:PhoneNumber",
          "    properties:",
          "      number: ${spare.number}",
          "      inboundAgent: ${receptionist.id}",
          "",
          "outputs:",
          "",
        ].join("\n"),
      ),
    );
    expect(await applied("up")).toEqual({ create: 2 });
    const urn = (type: string, name: string) => `urn:pulumi:test::va-yaml::voiceagent:index:${type}::${name}`;
    const renamed = readFileSync(manifest, "utf8")
      .replace("  front-desk:\n    type: voiceagent:PhoneNumber\n", "  main-line:\n    type: voiceagent:PhoneNumber\n")
      // The template's line has options already (ignoreChanges): the alias joins them.
      .replace("    options:\n", `    options:\n      aliases:\n        - ${urn("PhoneNumber", "front-desk")}\n`)
      .replace(
        "  spare:\n    type: voiceagent:PurchasedNumber\n",
        `  after-hours:\n    type: voiceagent:PurchasedNumber\n    options:\n      aliases:\n        - ${urn("PurchasedNumber", "spare")}\n`,
      )
      .replace("${spare.number}", "${after-hours.number}")
      .replace("${front-desk.number}", "${main-line.number}");
    expect(renamed).not.toBe(original);
    writeFileSync(manifest, renamed);
    ctx.emu.resetStats();
    // The up's plan is the preview's: no change in it is no change in a preview.
    expect(await applied("up")).toEqual({});
    expect(writes()).toEqual([]);
    expect(await boundTo(seeded()[0]!)).toBe(agentId);
    const state = JSON.parse(await ctx.must(["stack", "export"])) as {
      deployment: { resources: { urn: string; outputs?: { number?: string } }[] };
    };
    const afterHours = state.deployment.resources.find((r) => r.urn === urn("PurchasedNumber", "after-hours"));
    const number = afterHours?.outputs?.number ?? "";
    expect(number).toMatch(/^\+1415/);
    const live = await ctx.client.numbers.get(number);
    expect(live.active).toBe(true);
    expect(live.inbound_agent?.id).toBe(agentId);
  }, 240_000);

  it("a bad input is refused at preview naming the field, with no write and no read beyond a good preview's", async () => {
    await ctx.must(["config", "set", "--secret", "prompt", ""]);
    ctx.emu.resetStats();
    const preview = await ctx.pulumi(["preview"]);
    await ctx.must(["config", "set", "--secret", "prompt", PROMPT]);
    expect(preview.code).not.toBe(0);
    expect(preview.stdout + preview.stderr).toMatch(/'receptionist' has a problem: prompt must not be empty/);
    expect(previewReads.length).toBeGreaterThan(0);
    expect(Object.keys(ctx.emu.stats.byRoute).filter((r) => !previewReads.includes(r))).toEqual([]);
  });

  const literalSecret = `A prompt written in the program (${randomUUID()}).`;
  it("fn::secret keeps a literal secret in the state; get: reads an existing agent without managing it", async () => {
    const seed = ctx.emu.seeds.get(ctx.token)!;
    const existing = await ctx.client.agents.create({ prompt: "Made by hand.", voice: seed.voices[0]! });
    const manifest = path.join(ctx.dir, "Pulumi.yaml");
    const lines = [
      "  greeter:",
      "    type: voiceagent:Agent",
      "    properties:",
      "      prompt:",
      `        fn::secret: ${JSON.stringify(literalSecret)}`,
      "      voice: ${voice.id}",
      "  existing:",
      "    type: voiceagent:Agent",
      "    get:",
      `      id: ${existing.id}`,
      "",
      "outputs:",
      "  existingVoice: ${existing.voice}",
      "",
    ];
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace("\noutputs:\n", ["", ...lines].join("\n")));
    ctx.emu.resetStats();
    // The history counts the read as no change.
    expect(await applied("up")).toEqual({ create: 1 });
    expect(Object.keys(ctx.emu.stats.writes)).toEqual(["POST /v1/agents/create"]);
    const exported = await ctx.must(["stack", "export"]);
    const { resources } = (
      JSON.parse(exported) as {
        deployment: {
          resources: { urn: string; type: string; external?: boolean; outputs?: Record<string, unknown> }[];
        };
      }
    ).deployment;
    // The stack's outputs, as `stack output` lists them: the stack resource's.
    expect(resources.find((r) => r.type === "pulumi:pulumi:Stack")?.outputs?.existingVoice).toBe(seed.voices[0]);
    const read = resources.find((r) => r.urn.endsWith("::voiceagent:index:Agent::existing"));
    expect(read?.external).toBe(true);
    expect(exported).not.toContain(literalSecret);
    for (const file of files(ctx.stateDir)) expect(readFileSync(file, "utf8"), file).not.toContain(literalSecret);
  }, 120_000);

  it("the secret prompt and the token are in no CLI output, export, backend or project file", async () => {
    expect(await ctx.plaintext(PROMPT)).toEqual([]);
    expect(await ctx.plaintext(ctx.token)).toEqual([]);
  });

  it("the CLI installed the plugin of the template's version into the empty PULUMI_HOME, downloading it once", () => {
    expect(installedPlugins(ctx.home)).toEqual([`resource-voiceagent-v${version}`]);
    expect(ctx.server.requests).toEqual([
      `/pulumi-resource-voiceagent-v${version}-${inject("releasePlatform")}.tar.gz`,
    ]);
  });

  it("destroy unbinds the line and removes every resource from the stack", async () => {
    // The agent read with get: is discarded from the stack, never deleted.
    expect(await applied("destroy")).toEqual({ delete: 6, discard: 1 });
    expect(await boundTo(seeded()[0]!)).toBeNull();
    const state = JSON.parse(await ctx.must(["stack", "export"])) as { deployment: { resources?: unknown[] } };
    expect(state.deployment.resources ?? []).toEqual([]);
  }, 120_000);

  // The same project with test/yaml/current-setup.yaml's sections: the current API's setup, its
  // nested inputs as YAML maps the engine checks against the schema's types.
  const manifest = () => path.join(ctx.dir, "Pulumi.yaml");
  /** The project's Pulumi.yaml with the setup's config, resources and outputs; `misspelt`: the fallback's model under `modl_name`. */
  const withSetup = (original: string, misspelt: boolean) => {
    const project = parse(original) as Record<string, unknown>;
    const setup = parse(readFileSync(path.join(REPO_ROOT, "test", "yaml", "current-setup.yaml"), "utf8")) as {
      config: Record<string, unknown>;
      resources: Record<string, { properties: Record<string, unknown> }>;
      outputs: Record<string, unknown>;
    };
    if (misspelt) setup.resources.recepcion!.properties.llmFallback = { provider: "azure", modl_name: "gpt-4o-mini" };
    const { variables: _lookups, ...rest } = project;
    return stringify({
      ...rest,
      config: { ...(project.config as Record<string, unknown>), ...setup.config },
      resources: setup.resources,
      outputs: setup.outputs,
    });
  };
  currentSetupScenario({
    set: async (key, value, secret = false) => {
      await ctx.must(["config", "set", ...(secret ? ["--secret"] : []), key, value]);
    },
    rm: async (key) => {
      await ctx.pulumi(["config", "rm", key]);
    },
    setAll: (values) => setAll(values),
    // `config rm-all` passes over a key that is not set.
    rmAll: async (keys) => {
      await ctx.must(["config", "rm-all", ...keys]);
    },
    use: async () => {
      const original = readFileSync(manifest(), "utf8");
      writeFileSync(manifest(), withSetup(original, false));
      return async () => writeFileSync(manifest(), original);
    },
    up: async (refresh = false) => ({
      changes: await applied("up", ...(refresh ? ["--refresh"] : [])),
      outputs: JSON.parse(await ctx.must(["stack", "output", "--json"])) as Record<string, unknown>,
    }),
    preview: async (refresh = false) =>
      changes(await ctx.must(["preview", "--json", ...(refresh ? ["--refresh"] : [])])),
    failingPreview: async () => {
      const good = readFileSync(manifest(), "utf8");
      writeFileSync(manifest(), withSetup(good, true));
      const r = await ctx.pulumi(["preview"]);
      writeFileSync(manifest(), good);
      return { code: r.code, printed: r.stdout + r.stderr };
    },
    destroy: () => applied("destroy"),
    get before() {
      return { baseUrl: ctx.emu.url, token: ctx.token };
    },
    // The engine's type check of the YAML program against the schema names the key.
    misspelt: /modl_name/,
    // The program holds the signature secret as the user wrote it; nothing Pulumi wrote does.
    actions: {
      plaintext: async (secret) => (await ctx.plaintext(secret)).filter((found) => found !== manifest()),
    },
  });
});

// The Fleet the plugin serves, in the same project: `${fleet}` from the stack file into
// voiceagent:Fleet, named `fleet` as a TypeScript program names it.
describe("the Fleet in YAML (voiceagent:Fleet, served by the plugin's Construct)", () => {
  const manifest = () => path.join(ctx.dir, "Pulumi.yaml");
  const driver: ServedFleetDriver = {
    set: async (key, value, opts = {}) => {
      await ctx.must([
        "config",
        "set",
        ...(opts.secret ? ["--secret"] : []),
        ...(opts.path ? ["--path"] : []),
        key,
        value,
      ]);
    },
    rm: async (key) => {
      await ctx.pulumi(["config", "rm", key]);
    },
    setAll,
    get stackFile() {
      return path.join(ctx.dir, "Pulumi.test.yaml");
    },
    project: "va-yaml",
    // The program of templates/voiceagent-fleet-yaml (its config, resources and outputs) in this project.
    use: async () => {
      const original = readFileSync(manifest(), "utf8");
      const {
        variables: _lookups,
        outputs: _outputs,
        resources: _resources,
        ...rest
      } = parse(original) as Record<string, unknown>;
      const template = parse(
        readFileSync(path.join(REPO_ROOT, "templates", "voiceagent-fleet-yaml", "Pulumi.yaml"), "utf8"),
      ) as Record<string, Record<string, unknown>>;
      writeFileSync(
        manifest(),
        stringify({
          ...rest,
          config: { ...(rest.config as Record<string, unknown>), ...template.config },
          resources: template.resources,
          outputs: template.outputs,
        }),
      );
      return async () => writeFileSync(manifest(), original);
    },
    up: async (refresh = false) => ({
      changes: await applied("up", ...(refresh ? ["--refresh"] : [])),
      outputs: JSON.parse(await ctx.must(["stack", "output", "--json"])) as Record<string, unknown>,
    }),
    preview: async (refresh = false) =>
      changes(await ctx.must(["preview", "--json", ...(refresh ? ["--refresh"] : [])])),
    // What destroy printed about the resources: its diagnostics (its JSON events hold every id anyway).
    destroy: async () => {
      const { changes: counts, notes } = await appliedWithNotes("destroy");
      return { changes: counts, printed: notes };
    },
    plaintext: (secret) => ctx.plaintext(secret),
    resources: async () => {
      const state = JSON.parse(await ctx.must(["stack", "export"])) as {
        deployment: { resources?: { type: string; urn: string; inputs?: Record<string, unknown> }[] };
      };
      return (state.deployment.resources ?? []).map((r) => ({ type: r.type, urn: r.urn, inputs: r.inputs ?? {} }));
    },
    get before() {
      return { baseUrl: ctx.emu.url, token: ctx.token };
    },
  };
  servedFleetScenario(driver);
  // The interface API's fleet on the same stack, which the scenario above left empty: issue 43 asks
  // for it from a language with no Node (the TypeScript move in test/consumer/fleet.test.ts has Node).
  servedInterfaceFleetScenario(driver);
});

describe("voiceagent pull --format yaml, and pulumi import into a YAML project", () => {
  // A hand-made account (the emulator's second token): its prompt holds what Pulumi YAML would
  // otherwise interpolate, and is never to be written into Pulumi.yaml.
  const secretPrompt = `You are the clinic's desk (${randomUUID()}); quote \${price} and $5 literally.`;
  const token = () => `${ctx.token}-pulled`;
  const client = () => createClient({ baseUrl: ctx.emu.url, token: token() });
  const made = { voice: "", action: "", webhook: "", agent: "", night: "", call: "", line: "", owned: "" };
  const pulledDir = () => path.join(ctx.tmp, "pulled");

  it(`pull writes a YAML program adopting every object and stores the prompts as secret config; its first up creates and buys nothing, then \
an empty preview`, async () => {
    const api = client();
    const seed = ctx.emu.seeds.get(token())!;
    made.voice = (await api.voices.create({ type: "voice_rime", voice_name: "pulled-voice", pitch: 1, rate: 2 })).id;
    made.action = (await api.actions.create({ type: "action_end_conversation", config: {} })).id;
    made.webhook = (
      await api.webhooks.create({ url: "https://hooks.example.com/pulled", subscriptions: ["event_message"] })
    ).id;
    const agent = await api.agents.create({
      prompt: secretPrompt,
      voice: made.voice,
      actions: [made.action],
      webhook: made.webhook,
    });
    made.agent = agent.id;
    made.night = (await api.agents.create({ prompt: "You are the night line.", voice: seed.voices[0]! })).id;
    made.line = seed.numbers[0]!;
    made.owned = seed.numbers[2]!;
    await api.numbers.update(made.line, made.agent);
    await api.numbers.update(seed.numbers[1]!, made.night);
    made.call = (await api.calls.create({ from_number: made.line, to_number: "+15557654321", agent: made.agent })).id;

    const pull = await run(
      process.execPath,
      [CLI_BIN, "pull", "--format", "yaml", "--out", pulledDir(), "--stack", "test"],
      { cwd: ctx.tmp, env: { ...ctx.env, VOICEAGENT_BASE_URL: ctx.emu.url, VOICEAGENT_TOKEN: token() } },
    );
    ctx.printed.push(pull.stdout, pull.stderr);
    expect(pull.stderr).toMatch(/stack test holds voiceagent:baseUrl and 2 prompts \(secret\)/);
    expect(pull.code).toBe(0);
    const manifest = readFileSync(path.join(pulledDir(), "Pulumi.yaml"), "utf8");
    expect(manifest).toMatch(/^runtime: yaml$/m);
    expect(manifest).not.toContain("night line");
    await ctx.must(["config", "set", "--secret", "voiceagent:token", token()], pulledDir());

    ctx.emu.resetStats();
    // Each resource is a create in Pulumi's terms that adopts its object: the service sees updates only.
    await ctx.must(["up", "--yes", "--skip-preview"], pulledDir());
    expect(Object.keys(ctx.emu.stats.writes).length).toBeGreaterThan(0);
    expect(Object.keys(ctx.emu.stats.byRoute).filter((r) => /create|buy/.test(r))).toEqual([]);
    expect(await client().agents.get(made.agent)).toMatchObject({ prompt: secretPrompt });
    await ctx.must(["preview", "--expect-no-changes"], pulledDir());
    expect(await ctx.plaintext(secretPrompt, pulledDir())).toEqual([]);
  }, 180_000);

  it("pulumi import writes YAML code for one object of each importable kind; with it in the program, the preview is empty", async () => {
    const dir = path.join(ctx.tmp, "imported");
    mkdirSync(dir);
    cpSync(path.join(TEMPLATE, "sdks"), path.join(dir, "sdks"), { recursive: true });
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: va-imported\nruntime: yaml\n");
    await ctx.must(["stack", "init"], dir);
    await ctx.must(
      [
        "config",
        "set-all",
        "--plaintext",
        `voiceagent:baseUrl=${ctx.emu.url}`,
        "--secret",
        `voiceagent:token=${token()}`,
      ],
      dir,
    );
    const resources = [
      ["Voice", "voice", made.voice],
      ["Action", "hang-up", made.action],
      ["Webhook", "hook", made.webhook],
      ["Agent", "desk", made.agent],
      ["PhoneNumber", "line", made.line],
      ["PurchasedNumber", "owned", made.owned],
      ["Call", "call", made.call],
    ].map(([kind, name, id]) => ({ type: `voiceagent:index:${kind}`, name, id }));
    writeFileSync(path.join(dir, "import.json"), JSON.stringify({ resources }));
    ctx.emu.resetStats();
    await ctx.must(["import", "--file", "import.json", "--out", "generated.yaml", "--yes"], dir);
    expect(ctx.emu.stats.writes).toEqual({});
    const generated = parse(readFileSync(path.join(dir, "generated.yaml"), "utf8")) as {
      resources: Record<string, { type: string }>;
    };
    // In Pulumi YAML's short form: voiceagent:Agent for voiceagent:index:Agent.
    expect(
      Object.values(generated.resources)
        .map((r) => r.type)
        .sort(),
    ).toEqual(resources.map((r) => r.type.replace(":index:", ":")).sort());
    const program = parse(readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")) as Record<string, unknown>;
    writeFileSync(path.join(dir, "Pulumi.yaml"), stringify({ ...program, resources: generated.resources }));
    const preview = await ctx.pulumi(["preview", "--expect-no-changes", "--diff"], dir);
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
  }, 180_000);
});
