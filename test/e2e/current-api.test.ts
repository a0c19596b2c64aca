// A clinic on the current API (2024) through the real CLI, from a project outside the repository
// with the packed provider (the dynamic entry): up, a no-change preview, a hand edit seen by
// `preview --refresh`, a prompt change in place, a voice type change, and destroy, which says what
// it cannot unbind on this API and leaves it bound; the vendor key the program gives as a plain
// string reaches the service and appears nowhere else. A number of the clinic's own Twilio account
// is linked (LinkedNumber): its agent changed by hand is seen, destroy leaves it linked and says so,
// and the Twilio credentials the service embeds in the number appear nowhere in output or state. Then examples/basic's program, as a second
// stack of the same project (sharing its install), on the same API. The clinic has a Spanish reception
// agent with every current-API agent field set (issue 35): a hand edit of three of them is seen too.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { packageJson, REPO_ROOT, run, TEMPLATE_TSCONFIG, TS_DEV_DEPENDENCIES } from "../helpers/consumer.js";
import { PULUMI, useConsumer } from "../consumer/lifecycle.js";
import { GENERATION_PROBE, routesSince } from "../helpers/generation-probe.js";
import { PullPlanSchema } from "../../provider/cli/plan.js";

/** The ElevenLabs key the clinic's program sets as a plain string (test/e2e/fixtures/clinic). */
const VENDOR_KEY = "el-clinic-key-5f0c9e1d";
/** The auth token of the clinic's Twilio account connection, made outside the program. */
const TWILIO_AUTH = "twilio-auth-3b9d1c7e";
/** The files of the project's backend folder (every checkpoint, its history and backups) that hold `text`. */
function backendFilesHolding(projectDir: string, text: string): string[] {
  const state = path.join(path.dirname(projectDir), "state");
  return readdirSync(state, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(state, f))
    .filter((f) => statSync(f).isFile() && readFileSync(f).includes(text));
}

const ctx = useConsumer({
  name: "clinic-2024",
  api: "2024",
  config: { "voiceagent:api": "2024" },
  project: (tarball) => ({
    files: {
      "Pulumi.yaml": "name: clinic\nruntime: nodejs\n",
      "package.json": packageJson({
        name: "clinic",
        dependencies: { "@pulumi/pulumi": PULUMI.latest, "pulumi-voiceagent": `file:${tarball}` },
        devDependencies: TS_DEV_DEPENDENCIES,
      }),
      "tsconfig.json": TEMPLATE_TSCONFIG,
      "index.ts": readFileSync(path.join(REPO_ROOT, "test/e2e/fixtures/clinic/index.ts"), "utf8"),
    },
  }),
});

/** Makes an object of a collection only the current API has, as the dashboard would; its id. */
async function made(route: string, body: unknown): Promise<string> {
  const res = await fetch(`${ctx.emu.url}/v1/${route}/create`, {
    method: "POST",
    headers: { authorization: `Bearer ${ctx.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json: unknown = await res.json();
  const id = typeof json === "object" && json !== null && "id" in json ? json.id : undefined;
  if (!res.ok || typeof id !== "string") throw new Error(`${route}/create answered ${res.status}`);
  return id;
}

describe("a clinic on the current API (dynamic entry)", () => {
  it("up, preview, a hand edit seen by preview --refresh, a prompt and a voice type changed in place, destroy", async () => {
    const { c, client } = ctx;
    // The clinic's Twilio account connection, and the Spanish agent's prompt object, vector
    // database and OpenAI connection, made on the service (not by this program).
    const promptId = await made("prompts", { content: "Eres la recepción de la clínica. Das y cambias citas." });
    await c.config({
      "clinic:twilioConnection": await made("account_connections", {
        type: "account_connection_twilio",
        credentials: { twilio_account_sid: "AC-clinic-0001", twilio_auth_token: TWILIO_AUTH },
      }),
      "clinic:spanishPromptId": promptId,
      "clinic:spanishVectorDatabase": await made("vector_databases", {
        type: "vector_database_pinecone",
        index: "clinica",
        api_key: "pc-clinic-key",
        api_environment: "us-east-1",
      }),
      "clinic:spanishOpenai": await made("account_connections", {
        type: "account_connection_openai",
        credentials: { openai_api_key: "sk-clinic-key" },
      }),
    });
    expect(await c.up()).toEqual({ create: 11 });
    const out = await c.outputs();
    const spanish = (await client.agents.list.all()).find((a) => a.name === "Recepción");
    expect(spanish).toMatchObject({ language: "es", prompt_id: promptId, llm_temperature: 0.3, idle_time_seconds: 20 });
    const spanishId = String(spanish?.id);
    const front = String(out.frontId);
    expect((await client.agents.get(front)).prompt).toBe("You are the clinic's front desk. Book and move visits.");
    expect((await client.numbers.get("+15550010002")).inbound_agent?.id).toBe(out.nurseId);
    expect((await client.numbers.get("+16465550100")).inbound_agent?.id).toBe(out.nurseId);

    // Nothing to do; and the preview says, before any destroy, what this API cannot undo.
    const preview = await c.pulumi(["preview", "--expect-no-changes", "--diff"]);
    expect(preview.stdout + preview.stderr).toMatch(/2024 API cannot unbind a number/);
    expect(preview.stdout + preview.stderr).toMatch(
      /LinkedNumber: the service has no unlink .* leaves the number linked/,
    );
    // The key reached the service (so the checks below are not vacuous), and nothing shows it.
    expect((await client.voices.get(String(out.calmId))).api_key).toBe(VENDOR_KEY);
    const shown = [preview.stdout, preview.stderr];

    // Someone edits the front desk's prompt, hands the linked number to the front desk, and edits
    // three of the Spanish agent's current-API fields, on the service: a refreshing preview shows
    // all three resources to update, naming the Spanish agent's fields.
    await client.agents.update(front, { prompt: "Edited by hand." });
    await client.numbers.update("+16465550100", front);
    await client.agents.update(spanishId, { language: "pt", interrupt_sensitivity: "low", idle_time_seconds: 45 });
    const refreshed = await c.pulumi(["preview", "--refresh", "--diff"]);
    const recepcion = refreshed.stdout.slice(refreshed.stdout.indexOf("voiceagent:Agent::recepcion"));
    for (const field of ["language", "interruptSensitivity", "idleTimeSeconds"])
      expect(recepcion, field).toMatch(new RegExp(`~ ${field} *: `));
    expect(refreshed.stdout).toMatch(/~ 3 to update/);

    await c.config({ "clinic:frontPrompt": "You are the clinic's front desk. Book, move and cancel visits." });
    expect(await c.up()).toEqual({ update: 1, same: 10 });
    expect((await client.agents.get(front)).prompt).toBe(
      "You are the clinic's front desk. Book, move and cancel visits.",
    );

    await c.config({ "clinic:calmVoice": "rime" });
    expect(await c.up()).toEqual({ update: 1, same: 10 });
    expect(await client.voices.get(String(out.calmId))).toMatchObject({ type: "voice_rime", speaker: "river" });
    expect(await c.preview()).toEqual({ same: 11 });

    const exported = await c.pulumi(["stack", "export"]);
    const destroy = await c.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(destroy.stdout + destroy.stderr).toMatch(/left bound to its agent and removed from the stack/);
    expect(destroy.stdout + destroy.stderr).toMatch(
      /voiceagent:LinkedNumber [0-9a-f-]{36}: .*leaves the number linked/,
    );
    shown.push(exported.stdout, destroy.stdout, destroy.stderr);
    expect(shown.join("\n").includes(VENDOR_KEY), "CLI output holds the vendor key").toBe(false);
    expect(backendFilesHolding(c.dir, VENDOR_KEY)).toEqual([]);
    // The full number the service answers embeds its Twilio connection, auth token and all.
    expect(shown.join("\n").includes(TWILIO_AUTH), "CLI output holds the Twilio auth token").toBe(false);
    expect(backendFilesHolding(c.dir, TWILIO_AUTH)).toEqual([]);
    // Still linked, and answered by the agent the hand edit gave it (the refreshing preview changed nothing).
    expect((await client.numbers.get("+16465550100")).inbound_agent?.id).toBe(front);
    // Both bindings stay (this API cannot remove them); the bought number is cancelled.
    expect((await client.numbers.get("+15550010001")).inbound_agent?.id).toBe(front);
    expect((await client.numbers.get(String(out.afterHoursNumber))).active).toBe(false);
    expect(await c.pulumi(["stack", "ls", "--json"]).then((r) => r.stdout)).toMatch(/"resourceCount": 0/);
  }, 240_000);

  it("examples/basic on the current API: up, an empty preview, destroy", async () => {
    const { c, client } = ctx;
    writeFileSync(path.join(c.dir, "index.ts"), readFileSync(path.join(REPO_ROOT, "examples/basic/index.ts"), "utf8"));
    await c.pulumi(["stack", "init", "basic"]);
    await c.config({
      "voiceagent:baseUrl": ctx.emu.url,
      "voiceagent:token": { value: ctx.token, secret: true },
      "voiceagent:api": "2024",
      "clinic:number": "+15550010003",
    });
    expect(await c.up()).toEqual({ create: 4 });
    const out = await c.outputs();
    expect((await client.numbers.get("+15550010003")).inbound_agent?.id).toBe(out.agentId);
    expect(await c.preview()).toEqual({ same: 4 });
    expect(await c.destroy()).toEqual({ delete: 4 });
  }, 180_000);

  // The current API's own kinds (docs/current-kinds.md), as a user declares them with their
  // credentials as plain strings: a prompt adopted by id, a vector database, an OpenAI and a Twilio
  // connection with a steering pool. A hand edit of the prompt and of the pool is seen by a
  // refreshing preview; no credential appears in the CLI's output, the export or the backend.
  it("prompts, vector databases and account connections: up, preview, hand edits seen by preview --refresh, secrets nowhere", async () => {
    const { c, client, emu } = ctx;
    const keys = { pinecone: "pc-own-key-3b9d2f1a", openai: "sk-own-key-8c1e4a7b", twilio: "tw-own-token-6f2a9c3d" };
    const [first, second] = emu.seeds.get(ctx.token)?.numbers ?? [];
    if (!first || !second) throw new Error("the emulator seeded too few numbers");
    const adopted = await client.prompts.create({ content: "Made in the dashboard." });
    writeFileSync(
      path.join(c.dir, "index.ts"),
      [
        'import * as pulumi from "@pulumi/pulumi";',
        'import * as va from "pulumi-voiceagent";',
        "const config = new pulumi.Config();",
        'const booking = new va.Prompt("booking", { content: "You book visits.", collectFields: [{ name: "email", ' +
          'label: "Email address" }], promptId: config.require("promptId") });',
        `const faq = new va.VectorDatabase("faq", { index: "clinic-faq", apiKey: "${keys.pinecone}", apiEnvironment: "us-east-1-aws" });`,
        `const openai = new va.AccountConnection("openai", { type: "account_connection_openai", openaiApiKey: "${keys.openai}" });`,
        `const twilio = new va.AccountConnection("twilio", { type: "account_connection_twilio", twilioAccountSid: ` +
          `"AC0123", twilioAuthToken: "${keys.twilio}", steeringPool: ["${first}", "${second}"] });`,
        "export const ids = { booking: booking.id, faq: faq.id, openai: openai.id, twilio: twilio.id };",
        "",
      ].join("\n"),
    );
    await c.pulumi(["stack", "init", "own"]);
    await c.config({
      "voiceagent:baseUrl": emu.url,
      "voiceagent:token": { value: ctx.token, secret: true },
      "voiceagent:api": "2024",
      "clinic:promptId": adopted.id,
    });
    expect(await c.up()).toEqual({ create: 5 });
    const ids = (await c.outputs()).ids as Record<string, string>;
    expect(ids.booking).toBe(adopted.id);
    expect((await client.prompts.get(adopted.id)).content).toBe("You book visits.");
    // The credentials reached the service (so the greps below are not vacuous).
    expect((await client.vector_databases.get(String(ids.faq))).api_key).toBe(keys.pinecone);
    const twilio = await client.account_connections.get(String(ids.twilio));
    expect(twilio).toMatchObject({ credentials: { twilio_auth_token: keys.twilio }, steering_pool: [first, second] });

    const quiet = await c.pulumi(["preview", "--expect-no-changes", "--diff"]);
    // Hand edits on the service: the prompt's text, and a number taken out of the pool.
    await client.prompts.update(adopted.id, { content: "Edited by hand." });
    await client.account_connections.removeFromSteeringPool(String(ids.twilio), second);
    expect(await c.preview(["--refresh"])).toMatchObject({ update: 2, same: 3 });
    // A refreshing up puts both back.
    await c.pulumi(["up", "--yes", "--refresh", "--skip-preview"]);
    expect((await client.prompts.get(adopted.id)).content).toBe("You book visits.");
    expect((await client.account_connections.get(String(ids.twilio))).steering_pool).toEqual([first, second]);

    const exported = await c.pulumi(["stack", "export"]);
    const destroy = await c.pulumi(["destroy", "--yes", "--skip-preview"]);
    const shown = [quiet.stdout, quiet.stderr, exported.stdout, destroy.stdout, destroy.stderr];
    for (const key of Object.values(keys)) {
      expect(shown.join("\n").includes(key), `CLI output holds ${key}`).toBe(false);
      expect(backendFilesHolding(c.dir, key)).toEqual([]);
    }
  }, 180_000);

  // voiceagent:api left at auto (the default), as a new user leaves it: a Voice left at its default
  // type (the interface's voice_base) fails at preview, naming `type`, whether or not the provider
  // read something first (a refresh); before 0.4.1 it passed a plain preview and failed at up.
  it("a default-typed Voice with voiceagent:api auto fails at preview naming type, with or without a refresh first", async () => {
    const { c, client, emu } = ctx;
    writeFileSync(
      path.join(c.dir, "index.ts"),
      [
        'import * as pulumi from "@pulumi/pulumi";',
        'import * as va from "pulumi-voiceagent";',
        "const config = new pulumi.Config();",
        'new va.Agent("desk", { prompt: "You answer the phone.", voice: config.require("voice") });',
        'if (config.getBoolean("plainVoice")) new va.Voice("plain", { voiceName: "alloy", pitch: 0, rate: 1 });',
        "",
      ].join("\n"),
    );
    await c.pulumi(["stack", "init", "auto"]);
    await c.config({
      "voiceagent:baseUrl": emu.url,
      "voiceagent:token": { value: ctx.token, secret: true },
      "clinic:voice": String(emu.seeds.get(ctx.token)?.voices[0]),
    });
    expect(await c.up()).toMatchObject({ create: 2 });
    await c.config({ "clinic:plainVoice": "true" });
    const previewOf = async (args: string[]) => {
      const before = { ...emu.stats.byRoute };
      const r = await c.pulumi(["preview", ...args], { check: false });
      return { code: r.code, text: r.stdout + r.stderr, sent: routesSince(emu.stats.byRoute, before) };
    };
    const plain = await previewOf([]);
    const refreshed = await previewOf(["--refresh"]);
    const said =
      /type: voice_base \(the type when none is set\) does not exist on the 2024 API: set type to one of voice_azure/;
    for (const p of [plain, refreshed]) {
      expect(p.code).not.toBe(0);
      expect(p.text).toMatch(said);
      expect(p.text).toMatch(/'plain' has a problem/);
    }
    // No write: the plain preview read the generation once; the refreshing one read the agent too.
    expect(plain.sent).toEqual({ [GENERATION_PROBE]: 1 });
    expect(Object.keys(refreshed.sent).filter((route) => !route.startsWith("GET "))).toEqual([]);
    // The probe, and the refresh's read of the agent: one page of the agent list (reads in pages).
    expect(refreshed.sent[GENERATION_PROBE]).toBe(2);
    expect((await client.voices.list.all()).some((v) => v.voice_name === "alloy")).toBe(false);
    await c.config({ "clinic:plainVoice": "false" });
    expect(await c.destroy()).toMatchObject({ delete: 2 });
  }, 180_000);

  // Issue 35: `voiceagent pull` of this account, which the tests above left holding every kind
  // (prompts, vector databases, OpenAI and Twilio connections, a linked number, agents referring
  // to them), as a second project sharing this one's install: its first `up` creates nothing on
  // the service, the next preview is empty. The program holds no secret; the user supplies each.
  it("voiceagent pull of an account holding every kind round-trips: 0 creates, then an empty preview", async () => {
    const { c, client, emu } = ctx;
    const out = path.join(c.dir, "pulled");
    const cli = path.join(c.dir, "node_modules/pulumi-voiceagent/dist/cli/main.js");
    const env = { ...c.env, VOICEAGENT_BASE_URL: emu.url, VOICEAGENT_TOKEN: ctx.token };
    const planned = await run(process.execPath, [cli, "pull", "--json"], { cwd: c.dir, env });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = PullPlanSchema.parse(JSON.parse(planned.stdout));
    const kinds = new Set(plan.resources.map((r) => r.kind));
    for (const kind of ["Prompt", "VectorDatabase", "AccountConnection", "LinkedNumber", "Agent"])
      expect(kinds, kind).toContain(kind);
    const pulled = await run(process.execPath, [cli, "pull", "--out", out, "--name", "pulled"], { cwd: c.dir, env });
    expect(pulled.code, pulled.stderr).toBe(0);
    const program = readFileSync(path.join(out, "index.ts"), "utf8");
    // The user's own secrets, as only they know them (read here from the service, which echoes them).
    const secrets: Record<string, string> = {};
    for (const r of plan.resources) {
      for (const [arg, a] of Object.entries(r.args)) {
        if (!("secret" in a)) continue;
        const value =
          r.kind === "VectorDatabase"
            ? (await client.vector_databases.get(r.id)).api_key
            : (await client.account_connections.get(r.id)).credentials[
                arg === "openaiApiKey" ? "openai_api_key" : "twilio_auth_token"
              ];
        if (!value) throw new Error(`the service holds no ${arg} for ${r.id}`);
        expect(program, `${arg} of ${r.kind} ${r.name}`).not.toContain(value);
        secrets[a.secret.key] = value;
      }
    }
    expect(Object.keys(secrets).length).toBeGreaterThanOrEqual(3);
    // What the CLI prints says which secret config to set, and holds no secret.
    for (const [key, value] of Object.entries(secrets)) {
      expect(pulled.stderr).toMatch(new RegExp(`pulumi config set --secret ${key} +# .+, never pulled`));
      expect(pulled.stdout + pulled.stderr + planned.stdout + planned.stderr).not.toContain(value);
    }
    const inPulled = (args: string[]) => c.pulumi(["--cwd", out, ...args]);
    await inPulled(["stack", "init", "round"]);
    await inPulled(["config", "set", "voiceagent:baseUrl", emu.url]);
    await inPulled(["config", "set", "voiceagent:api", "2024"]);
    await inPulled(["config", "set", "--secret", "voiceagent:token", ctx.token]);
    for (const [key, value] of Object.entries(secrets)) await inPulled(["config", "set", "--secret", key, value]);
    const before = { ...emu.stats.byRoute };
    await inPulled(["up", "--yes", "--skip-preview"]);
    const made = Object.entries(routesSince(emu.stats.byRoute, before)).filter(([route]) =>
      /^POST \/v1\/\w+\/(create|buy|link)$/.test(route),
    );
    expect(made).toEqual([]);
    await inPulled(["preview", "--expect-no-changes"]);
  }, 300_000);
});
