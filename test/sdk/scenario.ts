// The life of one example stack, the same for every SDK language: what a user of the Python or
// Go SDK does with examples/<language>, checked against the emulator rather than the CLI's words.
// The example looks up the voice named "alloy" and the first free number, reads an existing agent
// (Agent.get) and exports the status of a call placed beforehand (getCall).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, inject, it } from "vitest";
import { REPO_ROOT, run } from "../helpers/consumer.js";
import { installedPlugins } from "../helpers/release-server.js";
import { changed, type SdkStack } from "./sdk-stack.js";
import { GENERATION_PROBE } from "../helpers/generation-probe.js";

/**
 * Registers the scenario's tests, in order, on one stack. `fromRelease`: the stack gets its plugin
 * from the release server (useSdkStack's `releaseDir`), which adds the checks of that route.
 * What only the plugin and the engine decide, whatever the program's language, is proven once, in
 * the cheapest one: a plain preview missing an edit made on the service that a refreshing one sees
 * (test/yaml/yaml.test.ts, "preview --expect-no-changes passes right after up ..."), a bad input
 * refused at preview naming the resource and the property, sending nothing (test/yaml/yaml.test.ts,
 * "a bad input is refused at preview ...", and test/native/native.test.ts's bad input on the native
 * entry), a malformed setting refused naming the key, sending nothing (test/native/native.test.ts,
 * "native: ... a baseUrl with a path ..."). This scenario proves the SDK's own part: lookups, up,
 * Agent.get, secrets, a change in place and a replacement, destroy.
 */
export function sdkScenario(ctx: SdkStack, fromRelease = false): void {
  if (fromRelease) {
    it("the program and the CLI run with no `node` anywhere on PATH", async () => {
      const which = await run("which", ["node"], { cwd: ctx.dir, env: ctx.release!.env });
      expect(which.code).not.toBe(0);
      expect(which.stdout).toBe("");
    });
  }

  // The example binds the first seeded number unless config says otherwise (its Pulumi.yaml).
  const seeded = () => ctx.emu.seeds.get(ctx.token)!.numbers;
  const boundTo = async (number: string) => (await ctx.client.numbers.get(number)).inbound_agent?.id ?? null;
  const secrets: string[] = [];
  let agentId = "";
  let existing: { id: string; voice: string } = { id: "", voice: "" };
  let callId = "";
  /** Every route the emulator received since the last reset that is not a read. */
  const notReads = () => Object.keys(ctx.emu.stats.byRoute).filter((route) => !route.startsWith("GET "));
  const PROBE = GENERATION_PROBE;

  it("preview of the lookups sends only reads; a lookup that finds nothing fails at preview naming what it looked for", async () => {
    // Beforehand, outside the stack: an agent, and a call it took whose transcript is personal data.
    const seed = ctx.emu.seeds.get(ctx.token)!;
    const hidden = `Confidential instructions (${randomUUID()}).`;
    const agent = await ctx.client.agents.create({ prompt: hidden, voice: seed.voices[1]! });
    existing = { id: agent.id, voice: seed.voices[1]! };
    const call = await ctx.client.calls.create({
      from_number: seeded()[3]!,
      to_number: "+15557654321",
      agent: agent.id,
    });
    callId = call.id;
    const transcript = `Caller: my card number is ${randomUUID()}.`;
    // What the service records when the call ends (the emulator has no phone network to end it).
    const rec = ctx.emu.store.get<{ id: string; user_id: string }>("call", call.user_id, call.id)!;
    ctx.emu.store.update("call", { ...rec, status: "ended", recording_available: true, transcript });
    secrets.push(hidden, transcript);
    await ctx.pulumi(
      "config",
      "set-all",
      "--plaintext",
      `callId=${callId}`,
      "--plaintext",
      `existingAgent=${existing.id}`,
    );

    ctx.emu.resetStats();
    expect(changed(await ctx.summary("preview"))).toEqual({ create: 3 });
    expect(ctx.emu.stats.byRoute).toHaveProperty(["GET /v1/voices/list"]);
    expect(ctx.emu.stats.byRoute).toHaveProperty(["GET /v1/numbers/list"]);
    expect(notReads()).toEqual([]);
    // The provider's own read: the generation, asked once by the plugin before its first check answers.
    expect(ctx.emu.stats.byRoute[PROBE]).toBe(1);

    await ctx.pulumi("config", "set", "voiceName", "nobody-speaks-like-this");
    ctx.emu.resetStats();
    const failed = await ctx.program("preview");
    await ctx.pulumi("config", "rm", "voiceName");
    expect(failed.code).not.toBe(0);
    expect(failed.stdout + failed.stderr).toMatch(/found no voice named "nobody-speaks-like-this"/);
    expect(notReads()).toEqual([]);
  });

  it("up binds the first free number to an agent speaking with alloy, reads the existing agent, exports the call's status as a secret", async () => {
    const up = await ctx.summary("up");
    expect(changed(up)).toEqual({ create: 3 });
    agentId = String(up.outputs.agentId);
    expect(up.outputs.number).toBe(seeded()[0]);
    expect(await boundTo(seeded()[0]!)).toBe(agentId);
    const agent = await ctx.client.agents.get(agentId);
    expect(agent.voice.voice_name).toBe("alloy");
    // The prompt the program marked secret, as the service received it.
    secrets.push(agent.prompt);
    expect(up.outputs.existingVoice).toBe(existing.voice);
    expect(up.outputs.callStatus).toBe("[secret]");
    expect((await ctx.pulumi("stack", "output", "callStatus", "--show-secrets")).trim()).toBe(
      (await ctx.client.calls.get(callId)).status,
    );
  }, 180_000);

  // The up's no-change preview too: the first free number is now bound, so the lookup answers the
  // next one, and the binding stays.
  it("`pulumi preview` in the project folder runs the program through our language host and sees the same stack, with no change", async () => {
    const preview = JSON.parse(await ctx.pulumi("preview", "--json")) as { changeSummary: Record<string, number> };
    expect(changed({ changes: preview.changeSummary, outputs: {} })).toEqual({});
  });

  it("a new secret prompt updates the agent in place; a new number replaces the binding", async () => {
    const prompt = `Take a message for the team (${randomUUID()}).`;
    secrets.push(prompt);
    await ctx.pulumi("config", "set-all", "--secret", `prompt=${prompt}`, "--plaintext", `number=${seeded()[1]!}`);
    const up = await ctx.summary("up");
    expect(changed(up)).toEqual({ update: 1, replace: 1 });
    expect(up.outputs.agentId).toBe(agentId);
    expect((await ctx.client.agents.get(agentId)).prompt).toBe(prompt);
    expect(await boundTo(seeded()[0]!)).toBeNull();
    expect(await boundTo(seeded()[1]!)).toBe(agentId);
  });

  it(`the secret prompts, the call's transcript and the token are in 0 plain-text places (the existing agent's prompt in none of the \
state): stack export, backend files, output`, async () => {
    expect(secrets).toHaveLength(4);
    const named = { token: ctx.token, transcript: secrets[1]!, prompt: secrets[2]!, newPrompt: secrets[3]! };
    for (const [name, secret] of Object.entries(named)) expect(await ctx.plaintext(secret), name).toEqual([]);
    // The agent read with Agent.get: its prompt is encrypted in the state (additionalSecretOutputs),
    // but `preview --refresh` prints the read step's properties as the plugin's Read answers them
    // (the engine's ReadStep applies no additionalSecretOutputs): seen as `- prompt : "..."`.
    const existingPrompt = (await ctx.plaintext(secrets[0]!)).filter(
      (place) => place !== "the CLI's or the program's output",
    );
    expect(existingPrompt).toEqual([]);
  });

  it("destroy unbinds the number and removes every resource from the stack", async () => {
    const destroy = await ctx.summary("destroy");
    // The agent read with Agent.get is discarded from the stack, never deleted.
    expect(changed(destroy)).toEqual({ delete: 3, discard: 1 });
    expect(await boundTo(seeded()[1]!)).toBeNull();
    const state = JSON.parse(await ctx.pulumi("stack", "export")) as { deployment: { resources?: unknown[] } };
    expect(state.deployment.resources ?? []).toEqual([]);
  });

  if (fromRelease) {
    it("the CLI installed the plugin of the SDK's version into the empty PULUMI_HOME, downloading the archive once", () => {
      const version = (
        JSON.parse(readFileSync(path.join(REPO_ROOT, "provider/package.json"), "utf8")) as { version: string }
      ).version;
      expect(installedPlugins(ctx.release!.home)).toEqual([`resource-voiceagent-v${version}`]);
      expect(ctx.release!.server.requests).toEqual([
        `/pulumi-resource-voiceagent-v${version}-${inject("releasePlatform")}.tar.gz`,
      ]);
    });
  }
}
