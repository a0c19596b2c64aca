// The native provider end to end, as users get it: the packed tarball installed in a project
// outside the repository, the plugin run by the engine from ./node_modules/pulumi-voiceagent/dist/plugin,
// the programs on `pulumi-voiceagent/native`. One install and one backend are shared by every
// scenario; the scenarios run concurrently, each on an emulator of its own (an upgrade fixture's
// holds its rows), so that each can count the writes its own commands send:
//   root      the root program's shape: up, an empty preview, a change in place, a rename with an alias, destroy
//   secrets   every string input of every kind a secret: in no state file, export or CLI output; the token nowhere
//   import    `pulumi import` of each kind (numbers by E.164), then `voiceagent pull --import-file` + `pulumi import --file`
//   migrate   each upgrade fixture's stack to native and back, and one written by this release's dynamic classes to native
//   clinic    the clinic of test/e2e/fixtures/clinic on the current API (2024): up, an empty preview, a hand edit seen
//             by preview --refresh, a prompt and a voice type changed in place, destroy saying what it cannot unbind;
//             and examples/basic on the same API (up, an empty preview, destroy)
// Our language host has no GenerateProgram, so every import runs with --generate-code=false.
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, inject, it, type ExpectStatic } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, Store, type RunningEmulator } from "voiceagent-emulator";
import { ok, REPO_ROOT, run } from "../helpers/consumer.js";
import { FIXTURES, loadRows, readMeta, type FixtureMeta, type ServiceRows } from "../upgrade/fixture.js";
import { filesContaining, nativeInstall, onNative, projectYaml, type NativeInstall, type Project, type Step } from "./project.js";

const fixture = (name: string) => readFileSync(path.join(REPO_ROOT, "test/native/fixtures", name, "index.ts"), "utf8");
const versions = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const metas: FixtureMeta[] = versions.map((v) => readMeta(path.join(FIXTURES, v)));
/** Every fixture's program, its import switched by config `test:entry` (native unless "dynamic"). */
function switchable(program: string): string {
  const line = /^import \* as va from "pulumi-voiceagent";$/m;
  if (!line.test(program)) throw new Error('an upgrade fixture\'s program no longer has the line `import * as va from "pulumi-voiceagent";`');
  return program.replace(
    line,
    'import * as vaDynamic from "pulumi-voiceagent";\nimport * as vaNative from "pulumi-voiceagent/native";\n' +
      'const va = new pulumi.Config("test").get("entry") === "dynamic" ? vaDynamic : vaNative;',
  );
}

/** One account per scenario, each on its own emulator. */
const tokens = { root: `native-root-${randomUUID()}`, secrets: `native-secrets-${randomUUID()}`, single: `native-import-${randomUUID()}`, bulk: `native-pull-${randomUUID()}`, dynamic: `native-dyn-${randomUUID()}`, clinic: `native-clinic-${randomUUID()}` };
type Scenario = keyof typeof tokens;
const emus = new Map<Scenario, RunningEmulator>();
const emuOf = (s: Scenario) => emus.get(s)!;
const fixtureEmus = new Map<string, RunningEmulator>();
let install: NativeInstall;
let root: Project;
let secrets: Project;
let secretsBackend: string;
let imported: Project;
let clinic: Project;
let basic: Project;
const fixtureProjects = new Map<string, Project>();
const clientOf = (e: RunningEmulator, token: string): VoiceAgentClient => createClient({ baseUrl: e.url, token });
const numbersOf = (s: Scenario) => emuOf(s).seeds.get(tokens[s])?.numbers ?? [];
const writes = (e: RunningEmulator) => Object.values(e.stats.writes).reduce((a, b) => a + b, 0);
/** Steps that would make or remake a service object. */
const creating = (steps: Step[]) => steps.filter((s) => /create|replace|delete/.test(s.op));
/** Sets a stack's config in one command: the credentials (token secret), then plain and secret values. */
const configure = (p: Project, stack: string, e: RunningEmulator, token: string, plain: Record<string, string> = {}, secret: Record<string, string> = {}) =>
  p.pulumi(stack, [
    "config",
    "set-all",
    "--plaintext",
    `voiceagent:baseUrl=${e.url}`,
    "--secret",
    `voiceagent:token=${token}`,
    ...Object.entries(plain).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
    ...Object.entries(secret).flatMap(([k, v]) => ["--secret", `${k}=${v}`]),
  ]);

beforeAll(async () => {
  for (const [scenario, token] of Object.entries(tokens)) {
    emus.set(scenario as Scenario, await startEmulator({ tokens: [token], seed: true, ...(scenario === "clinic" ? { api: "2024" as const } : {}) }));
  }
  for (const [i, v] of versions.entries()) {
    const store = new Store();
    loadRows(store, JSON.parse(readFileSync(path.join(FIXTURES, v, "service.json"), "utf8")) as ServiceRows);
    fixtureEmus.set(v, await startEmulator({ db: store, tokens: [metas[i]!.token] }));
  }
  // One passphrase for the backend: the fixtures' stacks are imported with theirs (the same for all).
  install = await nativeInstall(inject("providerTarball"), metas[0]?.pulumi ?? "3.259.0", metas[0]?.passphrase ?? "native-e2e");
  secretsBackend = `${install.stateDir}-secrets`;
  root = install.project("root", { "Pulumi.yaml": projectYaml("pulumi-voiceagent"), "index.ts": fixture("root") });
  // A backend of its own: every file of it is searched for the secrets (other scenarios' emulators hand out the same numbers).
  mkdirSync(secretsBackend);
  secrets = install.project("secrets", { "Pulumi.yaml": projectYaml("secrets"), "index.ts": fixture("secrets") }, { PULUMI_BACKEND_URL: `file://${secretsBackend}` });
  imported = install.project("imported", { "Pulumi.yaml": projectYaml("imported"), "index.ts": fixture("imported") });
  const clinicProgram = readFileSync(path.join(REPO_ROOT, "test/e2e/fixtures/clinic/index.ts"), "utf8");
  clinic = install.project("clinic", { "Pulumi.yaml": projectYaml("clinic"), "index.ts": onNative(clinicProgram) });
  basic = install.project("basic", { "Pulumi.yaml": projectYaml("basic"), "index.ts": onNative(readFileSync(path.join(REPO_ROOT, "examples/basic/index.ts"), "utf8")) });
  for (const [i, v] of versions.entries()) {
    const meta = metas[i]!;
    // A project per fixture (its URNs name its project and stack), on a backend of its own.
    const backend = `${install.stateDir}-${v}`;
    mkdirSync(backend);
    const files = { "Pulumi.yaml": projectYaml(meta.project), "index.ts": switchable(readFileSync(path.join(FIXTURES, v, "index.ts"), "utf8")) };
    fixtureProjects.set(v, install.project(`fixture-${v}`, files, { PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_CONFIG_PASSPHRASE: meta.passphrase }));
  }
  await install.compile();
}, 300_000);

afterAll(async () => {
  install?.consumer.dispose();
  for (const e of [...emus.values(), ...fixtureEmus.values()]) await e.close();
});

describe.concurrent("the root program on the native classes", () => {
  const stack = "native";
  const lineBound = async (number: string) => (await clientOf(emuOf("root"), tokens.root).numbers.get(number)).inbound_agent?.id;

  it("up binds the lines, the next preview is empty, a change is in place, a rename keeps the line bound, destroy unbinds", async ({ expect }) => {
    const emu = emuOf("root");
    const [supportNumber, salesNumber] = numbersOf("root");
    await root.init(stack);
    await configure(root, stack, emu, tokens.root, { supportNumber: supportNumber!, salesNumber: salesNumber! });
    expect(await root.up(stack)).toMatchObject({ create: 8 }); // 7 resources + the stack
    const exported = await root.exported(stack);
    expect(exported.filter((r) => r.type.startsWith("voiceagent:index:")).map((r) => r.type.slice(17)).sort()).toEqual(
      ["Action", "Agent", "Agent", "PhoneNumber", "PhoneNumber", "Voice", "Webhook"],
    );
    expect(JSON.stringify(exported)).not.toContain("__provider");
    const support = exported.find((r) => r.urn.endsWith("::support-agent"))?.id;
    expect(await lineBound(supportNumber!)).toBe(support);

    await root.pulumi(stack, ["preview", "--expect-no-changes", "--diff"]);

    await root.pulumi(stack, ["config", "set", "supportPrompt", "You are the support line, version two."]);
    const change = await root.preview(stack);
    expect(change.steps.filter((s) => s.op !== "same").map((s) => [s.op, s.urn.split("::").pop()])).toEqual([["update", "support-agent"]]);
    await root.up(stack);
    expect((await clientOf(emu, tokens.root).agents.get(support!)).prompt).toBe("You are the support line, version two.");

    await root.pulumi(stack, ["config", "set", "supportLine", "support-line-renamed"]);
    const before = writes(emu);
    const renamed = await root.up(stack);
    expect(renamed).not.toHaveProperty("create");
    expect(renamed).not.toHaveProperty("delete");
    expect(writes(emu) - before).toBe(0);
    expect(await lineBound(supportNumber!)).toBe(support);

    expect(await root.destroy(stack)).toMatchObject({ delete: 8 });
    expect(await lineBound(supportNumber!)).toBeUndefined();
    expect(await lineBound(salesNumber!)).toBeUndefined();
  }, 240_000);
});

describe.concurrent("a clinic on the current API (2024), native classes", () => {
  it("up, an empty preview, a hand edit seen by preview --refresh, a prompt and a voice type changed in place, destroy", async ({ expect }) => {
    const stack = "clinic";
    const emu = emuOf("clinic");
    const client = clientOf(emu, tokens.clinic);
    await clinic.init(stack);
    await configure(clinic, stack, emu, tokens.clinic, { "voiceagent:api": "2024" });
    expect(await clinic.up(stack)).toMatchObject({ create: 9 }); // 8 resources + the stack
    const exported = await clinic.exported(stack);
    const front = exported.find((r) => r.urn.endsWith("::front-desk"))?.id ?? "";
    const calm = exported.find((r) => r.urn.endsWith("::calm"))?.id ?? "";
    expect((await client.agents.get(front)).prompt).toBe("You are the clinic's front desk. Book and move visits.");

    const quiet = await clinic.pulumi(stack, ["preview", "--expect-no-changes"]);
    expect(quiet.stdout + quiet.stderr).toMatch(/2024 API cannot unbind a number/);

    await client.agents.update(front, { prompt: "Edited by hand." });
    const drift = await clinic.preview(stack, ["--refresh"]);
    expect(drift.steps.filter((s) => s.op === "update").map((s) => s.urn.split("::").pop())).toEqual(["front-desk"]);

    await clinic.pulumi(stack, ["config", "set", "frontPrompt", "You are the clinic's front desk. Book, move and cancel visits."]);
    expect(await clinic.up(stack)).toMatchObject({ update: 1 });
    expect((await client.agents.get(front)).prompt).toBe("You are the clinic's front desk. Book, move and cancel visits.");
    await clinic.pulumi(stack, ["config", "set", "calmVoice", "rime"]);
    expect(await clinic.up(stack)).toMatchObject({ update: 1 });
    expect(await client.voices.get(calm)).toMatchObject({ type: "voice_rime", speaker: "river" });

    const destroyed = await clinic.pulumi(stack, ["destroy", "--yes", "--skip-preview"]);
    expect(destroyed.stdout + destroyed.stderr).toMatch(/left bound to its agent and removed from the stack/);
    expect((await client.numbers.get(numbersOf("clinic")[0]!)).inbound_agent?.id).toBe(front);
  }, 240_000);

  it("examples/basic on the current API: up, an empty preview, destroy", async ({ expect }) => {
    const stack = "basic";
    const emu = emuOf("clinic");
    const number = numbersOf("clinic")[2]!;
    await basic.init(stack);
    await configure(basic, stack, emu, tokens.clinic, { "voiceagent:api": "2024", "basic:number": number });
    expect(await basic.up(stack)).toMatchObject({ create: 4 });
    const agent = (await basic.exported(stack)).find((r) => r.urn.endsWith("::receptionist"))?.id;
    expect((await clientOf(emu, tokens.clinic).numbers.get(number)).inbound_agent?.id).toBe(agent);
    await basic.pulumi(stack, ["preview", "--expect-no-changes"]);
    expect(await basic.destroy(stack)).toMatchObject({ delete: 4 });
  }, 240_000);
});

describe.concurrent("secrets on the native classes", () => {
  const stack = "secrets";
  const nonce = randomUUID().slice(0, 8);

  it("every secret input, and the token given to an explicit Provider, appear nowhere in plaintext: export, backend files, project files, CLI output", async ({ expect }) => {
    const emu = emuOf("secrets");
    const [, lineNumber, ownedNumber] = numbersOf("secrets");
    const values: Record<string, string> = {
      "secrets:nonce": nonce,
      "secrets:transferTo": "+15557771234",
      "secrets:ownedNumber": ownedNumber!,
      "secrets:lineNumber": lineNumber!,
      "secrets:callee": "+15558889999",
    };
    await secrets.init(stack);
    // No voiceagent:* config: the resources use the explicit Provider, given the token in secrets:token.
    await secrets.pulumi(stack, ["config", "set-all", "--plaintext", `secrets:baseUrl=${emu.url}`, ...Object.entries({ ...values, "secrets:token": tokens.secrets }).flatMap(([k, v]) => ["--secret", `${k}=${v}`])]);
    const printed: string[] = [];
    const up = await secrets.pulumi(stack, ["up", "--yes", "--skip-preview"]);
    printed.push(up.stdout, up.stderr);
    // The service did get them (the check is not vacuous).
    const client = clientOf(emu, tokens.secrets);
    expect((await client.agents.list.all()).map((a) => a.prompt)).toEqual([`prompt-${nonce}`]);
    expect((await client.calls.list.all())[0]?.to_number).toBe(values["secrets:callee"]);
    const preview = await secrets.pulumi(stack, ["preview", "--refresh", "--diff"]);
    const exported = await secrets.pulumi(stack, ["stack", "export"]);
    printed.push(preview.stdout, preview.stderr);
    const wanted = [`voice-${nonce}`, `prompt-${nonce}`, `hello-${nonce}`, `https://hooks.example.com/${nonce}`, ...Object.values(values).slice(1), tokens.secrets];
    const leaks = () =>
      wanted.flatMap((s) => [
        ...(exported.stdout.includes(s) ? [`stack export holds ${s}`] : []),
        ...(printed.join("\n").includes(s) ? [`CLI output holds ${s}`] : []),
        ...filesContaining(secretsBackend, s).map((f) => `${f} holds ${s}`),
        ...filesContaining(secrets.dir, s).map((f) => `${f} holds ${s}`),
      ]);
    expect(leaks()).toEqual([]);
    const destroyed = await secrets.pulumi(stack, ["destroy", "--yes", "--skip-preview"]);
    printed.push(destroyed.stdout, destroyed.stderr);
    expect(leaks()).toEqual([]);
  }, 240_000);
});

describe.concurrent("pulumi import", () => {
  it("imports one object of each kind (numbers by E.164); with the program declaring them, the preview is empty", async ({ expect }) => {
    const stack = "single";
    const emu = emuOf("single");
    const client = clientOf(emu, tokens.single);
    const [lineNumber, , ownedNumber] = numbersOf("single");
    const voice = await client.voices.create({ type: "voice_rime", voice_name: "imported-voice", pitch: 1, rate: 2 });
    const action = await client.actions.create({ type: "action_end_conversation", config: {} });
    const webhook = await client.webhooks.create({ url: "https://hooks.example.com/imported", method: "GET", subscriptions: ["event_message"] });
    const agent = await client.agents.create({ prompt: "You were imported.", voice: voice.id, actions: [action.id], webhook: webhook.id });
    await client.numbers.update(lineNumber!, agent.id);
    const call = await client.calls.create({ from_number: lineNumber!, to_number: "+15557654321", agent: agent.id });
    const objects = {
      voice: { name: "voice", voiceName: "imported-voice", pitch: 1, rate: 2, type: "voice_rime" },
      action: { name: "hang-up", type: "action_end_conversation" },
      webhook: { name: "hook", url: "https://hooks.example.com/imported", method: "GET", subscriptions: ["event_message"] },
      agent: { name: "agent", prompt: "You were imported." },
      line: { name: "line", number: lineNumber },
      owned: { name: "owned", number: ownedNumber },
      call: { name: "call", toNumber: "+15557654321" },
    };
    await imported.init(stack);
    await configure(imported, stack, emu, tokens.single, { "imported:objects": JSON.stringify(objects) });
    const ids: [string, string, string][] = [
      ["Voice", "voice", voice.id],
      ["Action", "hang-up", action.id],
      ["Webhook", "hook", webhook.id],
      ["Agent", "agent", agent.id],
      ["PhoneNumber", "line", lineNumber!],
      ["PurchasedNumber", "owned", ownedNumber!],
      ["Call", "call", call.id],
    ];
    const before = writes(emu);
    for (const [kind, name, id] of ids) {
      await imported.pulumi(stack, ["import", `voiceagent:index:${kind}`, name, id, "--generate-code=false", "--yes"]);
    }
    expect(writes(emu) - before).toBe(0);
    expect((await imported.exported(stack)).filter((r) => r.type.startsWith("voiceagent:index:"))).toHaveLength(7);
    const preview = await imported.pulumi(stack, ["preview", "--expect-no-changes", "--diff"], { check: false });
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
  }, 240_000);

  it("imports a whole account from the file `voiceagent pull --import-file` writes; its program previews empty", async ({ expect }) => {
    const stack = "bulk";
    const emu = emuOf("bulk");
    const client = clientOf(emu, tokens.bulk);
    const seeded = emu.seeds.get(tokens.bulk)!;
    const agent = await client.agents.create({ prompt: "You were pulled.", voice: seeded.voices[0]!, actions: seeded.actions });
    await client.numbers.update(seeded.numbers[0]!, agent.id);
    const out = path.join(install.consumer.dir, "pulled");
    const env = { ...install.consumer.env, VOICEAGENT_BASE_URL: emu.url, VOICEAGENT_TOKEN: tokens.bulk };
    const bin = path.join(install.consumer.dir, "node_modules/.bin/voiceagent");
    ok("voiceagent pull", await run(bin, ["pull", "--out", out, "--name", "pulled", "--import-file", path.join(out, "import.json")], { cwd: install.consumer.dir, env }));
    const file = JSON.parse(readFileSync(path.join(out, "import.json"), "utf8")) as { resources: { type: string; id: string }[] };
    // 3 seeded voices, the action, the webhook, the agent and its bound number (by E.164).
    expect(file.resources.map((r) => r.type).sort()).toEqual(
      ["Action", "Agent", "PhoneNumber", "Voice", "Voice", "Voice", "Webhook"].map((k) => `voiceagent:index:${k}`),
    );
    expect(file.resources.find((r) => r.type.endsWith(":PhoneNumber"))?.id).toBe(seeded.numbers[0]);
    const pulled = install.adopt(out);
    await pulled.init(stack);
    await configure(pulled, stack, emu, tokens.bulk);
    const before = writes(emu);
    await pulled.pulumi(stack, ["import", "--file", path.join(out, "import.json"), "--generate-code=false", "--yes"]);
    expect(writes(emu) - before).toBe(0);
    const preview = await pulled.pulumi(stack, ["preview", "--expect-no-changes", "--diff"], { check: false });
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
  }, 240_000);
});

describe.concurrent("migration from the dynamic provider and back, without replacement", () => {
  /** Moves `stack` to `entry`: no create/replace/delete previewed, 0 writes, then an empty preview. */
  async function move(expect: ExpectStatic, p: Project, stack: string, e: RunningEmulator, entry: "native" | "dynamic") {
    await p.pulumi(stack, ["config", "set", "test:entry", entry]);
    const { steps } = await p.preview(stack);
    // Every resource is an update (the recorded __provider, dropped or restored), none is made again.
    expect(creating(steps)).toEqual([]);
    expect(steps.length).toBeGreaterThan(0);
    expect(new Set(steps.map((s) => s.op))).toEqual(new Set(["update"]));
    const before = writes(e);
    const up = await p.up(stack);
    expect(up).not.toHaveProperty("create");
    expect(up).not.toHaveProperty("replace");
    expect(writes(e) - before).toBe(0);
    const state = await p.exported(stack);
    const ourResources = state.filter((r) => r.type.startsWith(entry === "native" ? "voiceagent:index:" : "pulumi-nodejs:dynamic/voiceagent:"));
    expect(ourResources.length).toBe(steps.length);
    // Neither in the outputs nor in the recorded inputs.
    const withProvider = ourResources.filter((r) => r.outputs?.__provider !== undefined || r.inputs?.__provider !== undefined);
    expect(withProvider.length).toBe(entry === "native" ? 0 : ourResources.length);
    await p.pulumi(stack, ["preview", "--expect-no-changes", "--diff"]);
    return state;
  }
  /** Each line's number → the agent bound to it on the service, and → the agent the state says. */
  async function bindings(expect: ExpectStatic, state: Awaited<ReturnType<Project["exported"]>>, client: VoiceAgentClient) {
    const lines = state.filter((r) => r.type.endsWith("voiceagent:PhoneNumber") || r.type === "voiceagent:index:PhoneNumber");
    expect(lines.length).toBeGreaterThan(0);
    return Promise.all(
      lines.map(async (r) => {
        const number = String(r.outputs?.number);
        return { number, live: (await client.numbers.get(number)).inbound_agent?.id, declared: r.outputs?.inboundAgent };
      }),
    );
  }

  for (const version of versions) it(`a stack written by ${version} moves to native and back; lines stay bound; destroy unbinds`, async ({ expect }) => {
    const meta = metas[versions.indexOf(version)]!;
    const p = fixtureProjects.get(version)!;
    const e = fixtureEmus.get(version)!;
    const client = clientOf(e, meta.token);
    await p.init(meta.stack);
    await p.pulumi(meta.stack, ["stack", "import", "--file", path.join(FIXTURES, version, "state.json")]);
    await configure(p, meta.stack, e, meta.token);
    const onNative = await move(expect, p, meta.stack, e, "native");
    for (const b of await bindings(expect, onNative, client)) expect(b.live, b.number).toBe(b.declared);
    const onDynamic = await move(expect, p, meta.stack, e, "dynamic");
    const bound = await bindings(expect, onDynamic, client);
    for (const b of bound) expect(b.live, b.number).toBe(b.declared);
    await p.destroy(meta.stack);
    for (const b of bound) expect((await client.numbers.get(b.number)).inbound_agent?.id, b.number).toBeUndefined();
  }, 240_000);

  it("a stack written by this release's dynamic classes moves to native; lines stay bound; destroy unbinds", async ({ expect }) => {
    const stack = "dynamic";
    const emu = emuOf("dynamic");
    const [supportNumber, salesNumber] = numbersOf("dynamic");
    const client = clientOf(emu, tokens.dynamic);
    await root.init(stack);
    await configure(root, stack, emu, tokens.dynamic, { supportNumber: supportNumber!, salesNumber: salesNumber!, "test:entry": "dynamic" });
    expect(await root.up(stack)).toMatchObject({ create: 8 });
    const onNative = await move(expect, root, stack, emu, "native");
    const bound = await bindings(expect, onNative, client);
    for (const b of bound) expect(b.live, b.number).toBe(b.declared);
    await root.destroy(stack);
    for (const b of bound) expect((await client.numbers.get(b.number)).inbound_agent?.id, b.number).toBeUndefined();
  }, 240_000);
});
