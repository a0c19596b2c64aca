// `voiceagent pull` of a current-API (2024) account holding every kind, made as the dashboard
// would (voices, an action, a webhook, a prompt object, a vector database, an OpenAI and a Twilio
// account connection, agents referring to them, a bound number and a number linked through the
// Twilio connection), in each of its three formats, end to end through the real CLI:
// - the TypeScript program, a project beside the clinic project's (sharing its install, which is
//   shared with current-api.test.ts and current-kinds.test.ts);
// - `--format yaml`, a Pulumi YAML project run by the YAML runtime with the native plugin the CLI
//   downloads from the release folder (served on 127.0.0.1) into an empty PULUMI_HOME, as test/yaml's;
// - `--format stack`, the fleet project (three-line program, the account in its stack file).
// Each stack's first `up` creates nothing on the service and the next preview is empty. The
// credentials (OpenAI key, Twilio auth token, Pinecone key) are never pulled: each is supplied as
// secret config, and none is in the generated files, the CLI's output or the backend's files (the
// checkpoint `stack export` prints, its history and backups).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { run, type RunResult } from "../helpers/consumer.js";
import { routesSince } from "../helpers/generation-probe.js";
import {
  downloadEnv,
  installedPlugins,
  pathWithout,
  startReleaseServer,
  type ReleaseServer,
} from "../helpers/release-server.js";
import { files } from "../yaml/yaml-stack.js";
import { type PullPlan, PullPlanSchema } from "../../provider/cli/plan.js";
import { backendFilesHolding, made, useClinicProject } from "./clinic-project.js";

// The service answers as a hosted API does (issue 40): credentials masked, unset fields null, lists
// newest first. The credentials the user supplies are the ones the service keeps (its store).
// Each format makes its own project and stack: the clinic project only lends its install and backend.
const ctx = useClinicProject("current-pull", {
  answers: { credentials: "masked", unsetAsNull: true, order: "reversed" },
  stack: false,
});

/** The credentials the dashboard gave the account's objects; the service masks them, pull must not write them. */
const SECRETS = {
  pinecone: "pc-pulled-key-0e7d3b59",
  openai: "sk-pulled-key-a41f8c26",
  twilio: "tw-pulled-tok-93c5e17b",
};
/** The inline prompt of the front desk: a Pulumi YAML program must not hold it (it is secret config there). */
const FRONT_PROMPT = "You are the front desk of the pulled clinic. Quote ${price} literally.";

let release: { server: ReleaseServer; home: string; tmp: string };
beforeAll(async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "va-pull-yaml-"));
  release = { server: await startReleaseServer(inject("releaseDir")), home: path.join(tmp, "pulumi-home"), tmp };
});
afterAll(async () => {
  await release?.server.close();
  if (release) rmSync(release.tmp, { recursive: true, force: true });
});

/** The id of the webhook the dashboard made without a method. */
let noMethod = "";

/** Fills the account with one object (or more) of every kind, as the dashboard would. */
async function holdEveryKind(): Promise<void> {
  const { client, emu } = ctx;
  const bound = emu.seeds.get(ctx.token)?.numbers[0];
  if (!bound) throw new Error("the emulator seeded no number");
  // A number of the team's own Twilio account (not one the emulator sells).
  const linked = "+16465550100";
  const warm = await client.voices.create({ type: "voice_azure", voice_name: "en-US-JennyNeural" });
  const calm = await client.voices.create({ type: "voice_rime", speaker: "river" });
  const hangUp = await client.actions.create({ type: "action_end_conversation", config: {} });
  // The service's other action types (issue 50), and a webhook made without a method (null on the service).
  await client.actions.create({ type: "action_transfer_call", config: { phone_number: "+15550100777" } });
  await client.actions.create({ type: "action_dtmf", config: {} });
  await client.actions.create({
    type: "action_external",
    config: {
      name: "lookup_patient",
      description: "Finds a patient by date of birth.",
      url: "https://api.clinic.example/patients",
      input_schema: {
        type: "object",
        properties: { dob: { type: "string" }, name: { type: "object", properties: {} } },
      },
      speak_on_send: true,
      speak_on_receive: false,
    },
  });
  await client.actions.create({
    type: "action_add_to_conference",
    config: { phone_number: "+15550100778", place_primary_on_hold: true },
  });
  await client.actions.create({ type: "action_set_hold", config: {} });
  noMethod = await made(ctx, "webhooks", {
    url: "https://hooks.example.com/no-method",
    subscriptions: ["event_message"],
  });
  const events = await client.webhooks.create({
    url: "https://hooks.example.com/pulled",
    subscriptions: ["event_phone_call_ended"],
  });
  const promptId = await made(ctx, "prompts", {
    content: "Eres la recepción de la clínica.",
    collect_fields: [{ field_type: "field_type_email", name: "email", label: "Correo" }],
  });
  const vectorDatabase = await made(ctx, "vector_databases", {
    type: "vector_database_pinecone",
    index: "clinica",
    api_key: SECRETS.pinecone,
    api_environment: "us-east-1",
  });
  const openai = await made(ctx, "account_connections", {
    type: "account_connection_openai",
    credentials: { openai_api_key: SECRETS.openai },
  });
  const twilio = await made(ctx, "account_connections", {
    type: "account_connection_twilio",
    credentials: { twilio_account_sid: "AC-pulled-0001", twilio_auth_token: SECRETS.twilio },
  });
  const front = await client.agents.create({
    prompt: FRONT_PROMPT,
    voice: calm.id,
    actions: [hangUp.id],
    webhook: events.id,
    initial_message: "Hello, you have reached the clinic.",
  });
  const recepcion = await client.agents.create({
    prompt_id: promptId,
    voice: warm.id,
    name: "Recepción",
    language: "es",
    interrupt_sensitivity: "high",
    endpointing_sensitivity: "relaxed",
    ivr_navigation_mode: "off",
    conversation_speed: 1.1,
    initial_message_delay: 0.5,
    idle_time_seconds: 20,
    ask_if_human_present_on_idle: true,
    noise_suppression: true,
    run_do_not_call_detection: true,
    context_endpoint: "https://ctx.example.com/recepcion",
    llm_temperature: 0.3,
    openai_model_name_override: "gpt-4o",
    llm_fallback: { provider: "azure", model_name: "gpt-4o-mini" },
    deepgram_keywords: { cita: 2 },
    vector_database: vectorDatabase,
    openai_account_connection: openai,
  });
  await client.numbers.update(bound, front.id);
  await client.linkedNumbers.link({
    phone_number: linked,
    telephony_account_connection: twilio,
    inbound_agent: recepcion.id,
  });
}

/** Runs the packed `voiceagent` CLI of the clinic project's install on the account. */
function voiceagent(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  const cli = path.join(ctx.c.dir, "node_modules/pulumi-voiceagent/dist/cli/main.js");
  return run(process.execPath, [cli, ...args], {
    cwd: ctx.c.dir,
    env: { ...ctx.c.env, VOICEAGENT_BASE_URL: ctx.emu.url, VOICEAGENT_TOKEN: ctx.token, ...env },
  });
}

/** The routes of the emulator that make an object (create, buy, link) sent while `act` ran. */
async function creates(act: () => Promise<unknown>): Promise<string[]> {
  const before = { ...ctx.emu.stats.byRoute };
  await act();
  return Object.keys(routesSince(ctx.emu.stats.byRoute, before)).filter((route) =>
    /^POST \/v1\/\w+\/(create|buy|link)$/.test(route),
  );
}

/** A secret the pulled plan asks the user for: its resource and argument, its config key, the value the service holds. */
interface Supplied {
  resource: PullPlan["resources"][number];
  arg: string;
  key: string;
  value: string;
}

/** Each secret the pulled plan asks the user for. */
async function secretValues(plan: PullPlan): Promise<Supplied[]> {
  const { emu } = ctx;
  const userId = emu.store.userFor(ctx.token).userId;
  type Kept = { api_key?: string; credentials?: Record<string, string> };
  const found: Supplied[] = [];
  for (const r of plan.resources) {
    for (const [arg, a] of Object.entries(r.args)) {
      if (!("secret" in a)) continue;
      const value =
        r.kind === "VectorDatabase"
          ? emu.store.get<Kept>("vector_database", userId, r.id)?.api_key
          : emu.store.get<Kept>("account_connection", userId, r.id)?.credentials?.[
              arg === "openaiApiKey" ? "openai_api_key" : "twilio_auth_token"
            ];
      if (!value) throw new Error(`the service holds no ${arg} for ${r.id}`);
      found.push({ resource: r, arg, key: a.secret.key, value });
    }
  }
  return found;
}

/** Where a credential appears: the files under `dir`, the backend's files, and `texts`. */
function holding(dir: string, texts: string[]): string[] {
  return Object.values(SECRETS).flatMap((secret) => [
    ...files(dir)
      .filter((f) => !f.includes(`${path.sep}node_modules${path.sep}`) && readFileSync(f).includes(secret))
      .map((f) => `${f} holds ${secret}`),
    ...backendFilesHolding(ctx.c.dir, secret).map((f) => `${f} holds ${secret}`),
    ...(texts.some((t) => t.includes(secret)) ? [`the CLI's output holds ${secret}`] : []),
  ]);
}

describe("voiceagent pull of a current-API account holding every kind", () => {
  let plan: PullPlan;
  let secrets: Supplied[];

  it("the TypeScript program round-trips: 0 creates, then an empty preview; the program holds no secret", async () => {
    const { c, emu } = ctx;
    await holdEveryKind();
    const out = path.join(c.dir, "pulled");
    const planned = await voiceagent(["pull", "--json"]);
    expect(planned.code, planned.stderr).toBe(0);
    plan = PullPlanSchema.parse(JSON.parse(planned.stdout));
    const kinds = new Set(plan.resources.map((r) => r.kind));
    for (const kind of [
      "Voice",
      "Action",
      "Webhook",
      "Prompt",
      "VectorDatabase",
      "AccountConnection",
      "LinkedNumber",
      "Agent",
      "PhoneNumber",
    ])
      expect(kinds, kind).toContain(kind);
    expect(new Set(plan.resources.filter((r) => r.kind === "Action").map((r) => JSON.stringify(r.args.type)))).toEqual(
      new Set(
        [
          "action_end_conversation",
          "action_transfer_call",
          "action_dtmf",
          "action_external",
          "action_add_to_conference",
          "action_set_hold",
        ].map((type) => JSON.stringify({ value: type })),
      ),
    );
    // Declared, not skipped: the service's unset method is its default, POST.
    expect((await ctx.client.webhooks.get(noMethod)).method ?? null).toBeNull();
    expect(plan.resources.filter((r) => r.kind === "Webhook" && r.id === noMethod)).toHaveLength(1);
    // Only the emulator's unbound seeded numbers are left out: no binding to declare.
    expect(new Set(plan.skipped.map((s) => `${s.collection}: ${s.reason}`))).toEqual(
      new Set(["numbers: not bound to an agent: there is no binding to declare"]),
    );
    const pulled = await voiceagent(["pull", "--out", out, "--name", "pulled"]);
    expect(pulled.code, pulled.stderr).toBe(0);
    const program = readFileSync(path.join(out, "index.ts"), "utf8");
    // The user's own secrets, as only they know them (read here from the service, which echoes them).
    secrets = await secretValues(plan);
    expect(secrets.map((s) => s.value).sort()).toEqual(Object.values(SECRETS).sort());
    for (const s of secrets)
      expect(program, `${s.arg} of ${s.resource.kind} ${s.resource.name}`).not.toContain(s.value);
    // What the CLI prints says which secret config to set, and holds no secret.
    for (const { key } of secrets)
      expect(pulled.stderr).toMatch(new RegExp(`pulumi config set --secret ${key} +# .+, never pulled`));
    const inPulled = (args: string[]) => c.pulumi(["--cwd", out, ...args]);
    await inPulled(["stack", "init", "round"]);
    // The settings and every secret the CLI named, in one command (each `config set --secret` is a
    // CLI start and a passphrase derivation).
    await inPulled([
      "config",
      "set-all",
      "--plaintext",
      `voiceagent:baseUrl=${emu.url}`,
      "--plaintext",
      "voiceagent:api=2024",
      "--secret",
      `voiceagent:token=${ctx.token}`,
      ...secrets.flatMap(({ key, value }) => ["--secret", `${key}=${value}`]),
    ]);
    let up: RunResult | undefined;
    expect(await creates(async () => (up = await inPulled(["up", "--yes", "--skip-preview"])))).toEqual([]);
    const quiet = await inPulled(["preview", "--expect-no-changes"]);
    const printed = [planned, pulled, up, quiet].flatMap((r) => [r?.stdout ?? "", r?.stderr ?? ""]);
    expect(holding(out, printed)).toEqual([]);
  }, 240_000);

  it(`--format yaml: a Pulumi YAML project on the downloaded native plugin adopts every object with 0 creates, then an empty preview; \
credentials and prompts only as secret config`, async () => {
    const { c } = ctx;
    const out = path.join(release.tmp, "pulled-yaml");
    // The YAML runtime and the native plugin the CLI downloads: no Node program, and not the
    // workspace's bin link of the plugin (an ambient plugin).
    const env = {
      ...downloadEnv(release.server, release.home),
      PATH: pathWithout(["pulumi-resource-voiceagent"], c.env.PATH ?? "", path.join(release.tmp, "path")),
    };
    const pulled = await voiceagent(["pull", "--format", "yaml", "--out", out, "--stack", "yaml"], env);
    expect(pulled.code, pulled.stderr).toBe(0);
    const manifest = readFileSync(path.join(out, "Pulumi.yaml"), "utf8");
    expect(manifest).toMatch(/^runtime: yaml$/m);
    // The prompt is secret config (set by pull itself), never text of the program.
    expect(manifest).not.toContain("front desk of the pulled clinic");
    // Each credential is a secret config value the program declares and reads, never a literal.
    for (const { key } of secrets) {
      expect(manifest).toContain(`  ${key}:\n    type: string\n    secret: true\n`);
      expect(manifest).toContain(`: "\${${key}}"`);
    }
    const inPulled = (args: string[]) => c.pulumi([...args, "--cwd", out, "--stack", "yaml"], { env });
    // As the CLI printed: the token, then each credential, as secret config (in one command).
    for (const { key } of secrets)
      expect(pulled.stderr).toMatch(new RegExp(`pulumi config set --secret ${key} --stack yaml +# .+, never pulled`));
    await inPulled([
      "config",
      "set-all",
      "--secret",
      `voiceagent:token=${ctx.token}`,
      ...secrets.flatMap(({ key, value }) => ["--secret", `${key}=${value}`]),
    ]);
    let up: RunResult | undefined;
    expect(await creates(async () => (up = await inPulled(["up", "--yes", "--skip-preview"])))).toEqual([]);
    expect(installedPlugins(release.home)).toEqual([expect.stringMatching(/^resource-voiceagent-v/)]);
    expect((await ctx.client.agents.list.all()).find((a) => a.prompt === FRONT_PROMPT)).toBeDefined();
    const quiet = await inPulled(["preview", "--expect-no-changes"]);
    const printed = [pulled, up, quiet].flatMap((r) => [r?.stdout ?? "", r?.stderr ?? ""]);
    expect(holding(out, printed)).toEqual([]);
  }, 240_000);

  it("--format stack: the fleet project adopts every object with 0 creates, then an empty preview; credentials only as secret config", async () => {
    const { c } = ctx;
    const out = path.join(c.dir, "pulled-fleet");
    const pulled = await voiceagent([
      "pull",
      "--format",
      "stack",
      "--out",
      out,
      "--stack",
      "fleet",
      "--name",
      "pulledfleet",
    ]);
    expect(pulled.code, pulled.stderr).toBe(0);
    const stackFile = readFileSync(path.join(out, "Pulumi.fleet.yaml"), "utf8");
    for (const section of ["prompts", "vectorDatabases", "accountConnections", "agents", "lines"])
      expect(stackFile, section).toMatch(new RegExp(`^    ${section}:$`, "m"));
    // Transpiled: the fleet program is the template's three lines, type-checked by test/consumer/fleet.test.ts.
    const inPulled = (args: string[]) =>
      c.pulumi([...args, "--cwd", out, "--stack", "fleet"], { env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" } });
    await c.pulumi(["stack", "init", "fleet", "--cwd", out]);
    // As the CLI printed: the address, the token, then each credential at its path of the fleet
    // value (in one command: each is a CLI start, and each secret a passphrase derivation).
    const paths = [...pulled.stderr.matchAll(/pulumi config set --path --secret '([^']+)' +# .+, never pulled/g)].map(
      (m) => m[1] ?? "",
    );
    expect(paths).toHaveLength(secrets.length);
    const credentials = secrets.map(({ resource, arg, value }) => {
      const at = paths.find((p) => p.endsWith(`.${resource.name}.${arg}`));
      expect(at, `${resource.kind} ${resource.name} ${arg}`).toBeDefined();
      return ["--secret", `${at}=${value}`];
    });
    await inPulled([
      "config",
      "set-all",
      "--path",
      "--plaintext",
      `voiceagent:baseUrl=${ctx.emu.url}`,
      "--secret",
      `voiceagent:token=${ctx.token}`,
      ...credentials.flat(),
    ]);
    let up: RunResult | undefined;
    expect(await creates(async () => (up = await inPulled(["up", "--yes", "--skip-preview"])))).toEqual([]);
    const quiet = await inPulled(["preview", "--expect-no-changes"]);
    const printed = [pulled, up, quiet].flatMap((r) => [r?.stdout ?? "", r?.stderr ?? ""]);
    expect(holding(out, printed)).toEqual([]);
  }, 240_000);
});
