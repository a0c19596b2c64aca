// `pulumi new ./templates/voiceagent-typescript` with our CLI, offline: the template's variables
// are filled in, its config is saved, our language host installs the dependencies (the template's
// own ranges, except pulumi-voiceagent, pointed at the packed tarball since it is not published
// yet), and the new project deploys against the emulator. The template's ranges and tsconfig are
// the settings the README recommends: TypeScript 6 (npm's `latest` is 7, which the Pulumi
// runtime's TypeScript support cannot load) with module/moduleResolution nodenext in a CommonJS
// package; `tsc --noEmit` checks them. What a deployment does after its first `up` (an empty
// preview, a change, destroy) is the lifecycle test/consumer/typescript-cjs.test.ts runs once.
import { cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createClient, type VoiceAgentClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { createConsumer, ok, redirectDependencies, REPO_ROOT, run, type Consumer } from "../helpers/consumer.js";

const template = path.join(REPO_ROOT, "templates/voiceagent-typescript");
const TOKEN = "template-test-token";
let emu: RunningEmulator;
let client: VoiceAgentClient;
let c: Consumer;

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], seed: true });
  client = createClient({ baseUrl: emu.url, token: TOKEN });
  c = createConsumer({ name: "template", files: {} });
}, 60_000);
afterAll(async () => {
  c?.dispose();
  await emu?.close();
});

describe("templates/voiceagent-typescript", () => {
  it("depends on this release of pulumi-voiceagent and asks for the token as a secret", () => {
    const ours = JSON.parse(readFileSync(path.join(REPO_ROOT, "provider/package.json"), "utf8")) as { version: string };
    const manifest = JSON.parse(readFileSync(path.join(template, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies["pulumi-voiceagent"]).toBe(`^${ours.version}`);
    expect(readFileSync(path.join(template, "Pulumi.yaml"), "utf8")).toMatch(
      / {4}voiceagent:token:\n {6}description: .*\n {6}secret: true\n/,
    );
  });

  it("pulumi new fills it in, saves config and installs; the project deploys", async () => {
    const copy = path.join(path.dirname(c.dir), "template");
    cpSync(template, copy, { recursive: true });
    redirectDependencies(path.join(copy, "package.json"), { "pulumi-voiceagent": `file:${inject("providerTarball")}` });

    const created = await c.pulumi([
      "new",
      copy,
      "--yes",
      "--name",
      "va-template",
      "--description",
      "Our front desk",
      "--stack",
      "dev",
      "-c",
      `voiceagent:baseUrl=${emu.url}`,
      "-c",
      "number=+15550010002",
    ]);
    expect(created.stdout).toMatch(/Installing dependencies[\s\S]*Finished installing dependencies/);
    const project = readFileSync(path.join(c.dir, "Pulumi.yaml"), "utf8");
    expect(project).toMatch(/^name: va-template\ndescription: Our front desk\n/);
    expect(project).toMatch(/packagemanager: npm/);
    expect(project).not.toMatch(/\$\{|template:\n\s+description/);
    expect(readFileSync(path.join(c.dir, "package.json"), "utf8")).toMatch(/"name": "va-template"/);
    expect(readFileSync(path.join(c.dir, "Pulumi.dev.yaml"), "utf8")).toMatch(/va-template:number: "\+15550010002"/);

    const installed = JSON.parse(readFileSync(path.join(c.dir, "node_modules/typescript/package.json"), "utf8")) as {
      version: string;
    };
    expect(installed.version).toMatch(/^6\./);
    ok(
      "tsc --noEmit",
      await run(process.execPath, ["node_modules/typescript/bin/tsc", "--noEmit", "--pretty", "false"], {
        cwd: c.dir,
        env: c.env,
      }),
    );

    await c.config({ "voiceagent:token": { value: TOKEN, secret: true } });
    expect(await c.up()).toEqual({ create: 4 });
    const outputs = await c.outputs();
    expect((await client.numbers.get("+15550010002")).inbound_agent?.id).toBe(outputs.agentId);
  }, 240_000);
});
