// The life of one example stack, the same for every SDK language: what a user of the Python or
// Go SDK does with examples/<language>, checked against the emulator rather than the CLI's words.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { changed, type SdkStack } from "./sdk-stack.js";

/** Registers the scenario's tests, in order, on one stack. */
export function sdkScenario(ctx: SdkStack): void {
  // The example binds the first seeded number unless config says otherwise (its Pulumi.yaml).
  const seeded = () => ctx.emu.seeds.get(ctx.token)!.numbers;
  const boundTo = async (number: string) => (await ctx.client.numbers.get(number)).inbound_agent?.id ?? null;
  const secrets: string[] = [];
  let agentId = "";

  it("up creates the voice, the agent and the binding of a seeded number; a second preview changes nothing", async () => {
    const up = await ctx.summary("up");
    expect(changed(up)).toEqual({ create: 4 });
    agentId = String(up.outputs.agentId);
    expect(await boundTo(seeded()[0]!)).toBe(agentId);
    // The prompt the program marked secret, as the service received it.
    const agent = await ctx.client.agents.get(agentId);
    secrets.push(agent.prompt);
    expect(changed(await ctx.summary("preview"))).toEqual({});
  }, 180_000);

  it("`pulumi preview` in the project folder runs the program through our language host and sees the same stack", async () => {
    const preview = JSON.parse(await ctx.pulumi("preview", "--json")) as { changeSummary: Record<string, number> };
    expect(changed({ changes: preview.changeSummary, outputs: {} })).toEqual({});
  });

  it("a new secret prompt updates the agent in place; a new number replaces the binding", async () => {
    const prompt = `Take a message for the team (${randomUUID()}).`;
    secrets.push(prompt);
    await ctx.pulumi("config", "set", "--secret", "prompt", prompt);
    await ctx.pulumi("config", "set", "number", seeded()[1]!);
    const up = await ctx.summary("up");
    expect(changed(up)).toEqual({ update: 1, replace: 1 });
    expect(up.outputs.agentId).toBe(agentId);
    expect((await ctx.client.agents.get(agentId)).prompt).toBe(prompt);
    expect(await boundTo(seeded()[0]!)).toBeNull();
    expect(await boundTo(seeded()[1]!)).toBe(agentId);
  });

  it("preview --refresh shows an edit made on the service, which a plain preview cannot see", async () => {
    await ctx.client.agents.update(agentId, { initial_message: "Edited in the console." });
    expect(changed(await ctx.summary("preview"))).toEqual({});
    expect(changed(await ctx.summary("preview", "--refresh"))).toEqual({ update: 1 });
  });

  it("a bad input fails at preview naming the resource and the property, sending nothing", async () => {
    await ctx.pulumi("config", "set", "number", "12345");
    ctx.emu.resetStats();
    const preview = await ctx.program("preview");
    await ctx.pulumi("config", "set", "number", seeded()[1]!);
    expect(preview.code).not.toBe(0);
    // Named in the reason, never as the `property` beside which the engine prints the value.
    expect(preview.stdout + preview.stderr).toMatch(/'front-desk' has a problem: number must be an E\.164/);
    // Reads count too: a preview sends no request of any kind.
    expect(ctx.emu.stats.total).toBe(0);
  });

  it("a malformed setting fails at preview naming the key, sending nothing", async () => {
    // Reachable (the emulator's address, with a path): a request to any path would be counted.
    await ctx.pulumi("config", "set", "voiceagent:baseUrl", `${ctx.emu.url}/v1`);
    ctx.emu.resetStats();
    const preview = await ctx.program("preview");
    await ctx.pulumi("config", "set", "voiceagent:baseUrl", ctx.emu.url);
    expect(preview.code).not.toBe(0);
    expect(preview.stdout + preview.stderr).toMatch(/voiceagent:baseUrl/);
    expect(ctx.emu.stats.total).toBe(0);
  });

  it("the secret prompts and the token are in 0 plain-text places: stack export, backend files, output", async () => {
    expect(secrets).toHaveLength(2);
    for (const secret of [ctx.token, ...secrets]) expect(await ctx.plaintext(secret)).toEqual([]);
  });

  it("destroy unbinds the number and removes every resource from the stack", async () => {
    const destroy = await ctx.summary("destroy");
    expect(changed(destroy)).toEqual({ delete: 4 });
    expect(await boundTo(seeded()[1]!)).toBeNull();
    const state = JSON.parse(await ctx.pulumi("stack", "export")) as { deployment: { resources?: unknown[] } };
    expect(state.deployment.resources ?? []).toEqual([]);
  });
}
