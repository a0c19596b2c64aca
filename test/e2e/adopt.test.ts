// Adoption of existing objects, and the message when a service refuses to unbind a number.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useEmulatorStack } from "../helpers/e2e.js";

/** The message a command failed with (the test fails if it succeeded). */
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected the command to fail");
    },
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );

const TOKEN = `e2e-adopt-${randomUUID()}`;
let agentId: string;
let voiceId: string;
const ctx = useEmulatorStack({
  name: "adopt",
  program: "dist/test/e2e/fixtures/adopt/index.js",
  token: TOKEN,
  before: async ({ emu, client }) => {
    voiceId = emu.seeds.get(TOKEN)!.voices[2]!;
    agentId = (await client.agents.create({ prompt: "Made by hand.", voice: emu.seeds.get(TOKEN)!.voices[0]! })).id;
    return {
      "adopt:agentId": { value: agentId },
      "adopt:voiceId": { value: voiceId },
      "adopt:number": { value: "+15550010002" },
    };
  },
});

describe("adoption instead of import", () => {
  it("takes over an existing voice, agent and number without creating new ones", async () => {
    const up = await ctx.t.stack.up();
    expect(up.outputs.agentId?.value).toBe(agentId);
    const agents = await ctx.client.agents.list.all();
    expect(agents).toHaveLength(1);
    expect(agents[0]).toMatchObject({ id: agentId, prompt: "Now managed by Pulumi." });
    expect(agents[0]!.voice).toMatchObject({ id: voiceId, voice_name: "adopted-voice", pitch: 2, rate: 3 });
    expect((await ctx.client.numbers.get("+15550010002")).inbound_agent?.id).toBe(agentId);
    expect(ctx.emu.stats.byRoute["POST /v1/agents/create"]).toBe(1);
    expect(ctx.emu.stats.byRoute["POST /v1/voices/create"]).toBeUndefined();
    const again = await ctx.t.stack.preview({ refresh: true });
    expect(again.changeSummary).toEqual({ same: 4 });
  });

  it("when the service refuses to unbind, destroy fails saying the number stays bound and what to do", async () => {
    ctx.emu.faults.add({ route: "/v1/numbers/update", method: "POST", status: 422, count: 1 });
    // Says the number is still bound (the service did nothing) and how to get past it.
    const refused = await failure(ctx.t.stack.destroy());
    expect(refused).toMatch(/\bbound\b/);
    expect(refused).toMatch(/nothing (was )?changed|not changed|unchanged|did not (act|change)/i);
    expect(refused).toContain("retainOnDelete");
    expect((await ctx.client.numbers.get("+15550010002")).inbound_agent?.id).toBe(agentId);
    const destroy = await ctx.t.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect((await ctx.client.numbers.get("+15550010002")).inbound_agent).toBeNull();
    // An adopted voice is never reset: destroy leaves it as Pulumi last set it.
    expect((await ctx.client.voices.get(voiceId)).voice_name).toBe("adopted-voice");
  });

  it("a token set as plain config fails at preview, before it could reach the state, and sends nothing", async () => {
    const before = ctx.emu.stats.total;
    await ctx.t.stack.setConfig("voiceagent:token", { value: TOKEN, secret: false });
    // Names the setting and gives the command that stores it as a secret.
    const plain = await failure(ctx.t.stack.preview());
    expect(plain).toContain("voiceagent:token");
    expect(plain).toContain("pulumi config set --secret voiceagent:token");
    // The baseUrl stayed the emulator's, so any request of any kind would have been counted.
    expect(ctx.emu.stats.total).toBe(before);
    await ctx.t.stack.setConfig("voiceagent:token", { value: TOKEN, secret: true });
  });

  it("a missing or malformed setting fails at preview naming it and the fix, and sends nothing", async () => {
    const before = ctx.emu.stats.total;
    await ctx.t.stack.removeConfig("voiceagent:baseUrl");
    // Names the setting and both ways to give it.
    const unset = await failure(ctx.t.stack.preview());
    expect(unset).toContain("pulumi config set voiceagent:baseUrl");
    expect(unset).toContain("VOICEAGENT_BASE_URL");
    await ctx.t.stack.setConfig("voiceagent:baseUrl", { value: "127.0.0.1:1234" });
    // Names the setting and shows the form it takes.
    const notUrl = await failure(ctx.t.stack.preview());
    expect(notUrl).toContain("voiceagent:baseUrl");
    expect(notUrl).toMatch(/https?:\/\/\w/);
    // Malformed but reachable (the emulator's address with a path): a request to any path would be
    // counted, so "sends nothing" can fail here, as it cannot with no URL or a closed port.
    await ctx.t.stack.setConfig("voiceagent:baseUrl", { value: `${ctx.emu.url}/api` });
    const withPath = await failure(ctx.t.stack.preview());
    expect(withPath).toMatch(/voiceagent:baseUrl must be the service's root URL, without a path/);
    expect(ctx.emu.stats.total).toBe(before);
    await ctx.t.stack.setConfig("voiceagent:baseUrl", { value: ctx.emu.url });
  }, 180_000);
});
