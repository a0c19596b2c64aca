// A clinic on the current API (2024) through the real CLI, from a project outside the repository
// with the packed provider (the dynamic entry): up, a no-change preview, a hand edit seen by
// `preview --refresh`, a prompt change in place, a voice type change, and destroy, which says what
// it cannot unbind on this API and leaves it bound; the vendor key the program gives as a plain
// string reaches the service and appears nowhere else. Then examples/basic's program, as a second
// stack of the same project (sharing its install), on the same API.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { packageJson, REPO_ROOT, TEMPLATE_TSCONFIG, TS_DEV_DEPENDENCIES } from "../helpers/consumer.js";
import { PULUMI, useConsumer } from "../consumer/lifecycle.js";

/** The ElevenLabs key the clinic's program sets as a plain string (test/e2e/fixtures/clinic). */
const VENDOR_KEY = "el-clinic-key-5f0c9e1d";
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

describe("a clinic on the current API (dynamic entry)", () => {
  it("up, preview, a hand edit seen by preview --refresh, a prompt and a voice type changed in place, destroy", async () => {
    const { c, client } = ctx;
    expect(await c.up()).toEqual({ create: 9 });
    const out = await c.outputs();
    const front = String(out.frontId);
    expect((await client.agents.get(front)).prompt).toBe("You are the clinic's front desk. Book and move visits.");
    expect((await client.numbers.get("+15550010002")).inbound_agent?.id).toBe(out.nurseId);

    // Nothing to do; and the preview says, before any destroy, what this API cannot undo.
    const preview = await c.pulumi(["preview", "--expect-no-changes", "--diff"]);
    expect(preview.stdout + preview.stderr).toMatch(/2024 API cannot unbind a number/);
    // The key reached the service (so the checks below are not vacuous), and nothing shows it.
    expect((await client.voices.get(String(out.calmId))).api_key).toBe(VENDOR_KEY);
    const shown = [preview.stdout, preview.stderr];

    // Someone edits the front desk's prompt on the service: a refreshing preview shows it.
    await client.agents.update(front, { prompt: "Edited by hand." });
    expect(await c.preview(["--refresh"])).toMatchObject({ update: 1 });

    await c.config({ "clinic:frontPrompt": "You are the clinic's front desk. Book, move and cancel visits." });
    expect(await c.up()).toEqual({ update: 1, same: 8 });
    expect((await client.agents.get(front)).prompt).toBe(
      "You are the clinic's front desk. Book, move and cancel visits.",
    );

    await c.config({ "clinic:calmVoice": "rime" });
    expect(await c.up()).toEqual({ update: 1, same: 8 });
    expect(await client.voices.get(String(out.calmId))).toMatchObject({ type: "voice_rime", speaker: "river" });
    expect(await c.preview()).toEqual({ same: 9 });

    const exported = await c.pulumi(["stack", "export"]);
    const destroy = await c.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(destroy.stdout + destroy.stderr).toMatch(/left bound to its agent and removed from the stack/);
    shown.push(exported.stdout, destroy.stdout, destroy.stderr);
    expect(shown.join("\n").includes(VENDOR_KEY), "CLI output holds the vendor key").toBe(false);
    expect(backendFilesHolding(c.dir, VENDOR_KEY)).toEqual([]);
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
});
