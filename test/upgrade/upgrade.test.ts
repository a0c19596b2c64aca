// Upgrades never replace or churn (pulumi/providertest's upgrade test): for every released
// version, the state its root program left is imported into a fresh stack of a project that runs
// the same program with this checkout's packed provider, against an emulator holding the objects
// of that moment. Preview, with and without refresh, must propose nothing; destroy must work,
// which runs the provider text stored in the old state: its `import("pulumi-voiceagent/providers")
// .runtimeFor(kind)[method](settings, ...args)` is a contract every later release keeps.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, Store, type RunningEmulator } from "voiceagent-emulator";
import { createConsumer, type Consumer } from "../helpers/consumer.js";
import { FIXTURES, loadRows, projectFiles, readMeta, type FixtureMeta, type ServiceRows } from "./fixture.js";

const versions = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));

describe.each(versions)("a stack written by pulumi-voiceagent %s", (version) => {
  const dir = path.join(FIXTURES, version);
  let meta: FixtureMeta;
  let emu: RunningEmulator;
  let client: VoiceAgentClient;
  let c: Consumer;

  beforeAll(async () => {
    meta = readMeta(dir);
    if (meta.version !== version) throw new Error(`${dir}/fixture.json says version ${meta.version}`);
    const store = new Store();
    loadRows(store, JSON.parse(readFileSync(path.join(dir, "service.json"), "utf8")) as ServiceRows);
    emu = await startEmulator({ db: store, tokens: [meta.token] });
    client = createClient({ baseUrl: emu.url, token: meta.token });
    c = createConsumer({
      name: `upgrade-${version}`,
      files: projectFiles(dir, meta, inject("providerTarball")),
      passphrase: meta.passphrase,
      env: { VOICEAGENT_BASE_URL: emu.url, VOICEAGENT_TOKEN: meta.token },
    });
    await c.install();
    await c.pulumi(["stack", "init", meta.stack]);
    await c.pulumi(["stack", "import", "--file", path.join(dir, "state.json")]);
  }, 240_000);
  afterAll(async () => {
    c?.dispose();
    await emu?.close();
  });

  it("preview with the new code proposes no change", async () => {
    const preview = await c.pulumi(["preview", "--expect-no-changes", "--diff"], { check: false });
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
  }, 120_000);

  it("preview --refresh proposes no change: reads of the old objects match the state", async () => {
    const before = emu.stats.total;
    const preview = await c.pulumi(["preview", "--refresh", "--expect-no-changes", "--diff"], { check: false });
    expect(preview.code, preview.stdout + preview.stderr).toBe(0);
    expect(emu.stats.total).toBeGreaterThan(before);
  }, 120_000);

  it("destroy runs the old state's provider text against the new package", async () => {
    const state = JSON.parse((await c.pulumi(["stack", "export"])).stdout) as {
      deployment: { resources: { type: string; id?: string; outputs?: { number?: unknown } }[] };
    };
    // 0.1.0 made a binding's id its number, 0.2.0 the number's UUID: the recorded number is in both.
    const numbers = state.deployment.resources.filter((r) => r.type.endsWith("voiceagent:PhoneNumber")).map((r) => String(r.outputs?.number));
    expect(numbers.length).toBeGreaterThan(0);
    const deleted = await c.destroy();
    expect(deleted.delete).toBe(state.deployment.resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/")).length + 1);
    for (const n of numbers) expect((await client.numbers.get(n)).inbound_agent).toBeNull();
  }, 120_000);
});
