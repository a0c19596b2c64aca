// examples/environments: config moves the main line between agents in place; a test call is placed
// and ended; cancelOnDelete cancels on destroy but never during a replacement.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/pulumi-stack.js";
import { changes, useEmulatorStack } from "../helpers/e2e.js";

// The program as the example's own Pulumi.yaml names it.
const main = /^main: (.+)$/m.exec(readFileSync(path.join(ROOT, "examples/environments/Pulumi.yaml"), "utf8"))?.[1] ?? "";
const ctx = useEmulatorStack({
  name: "environments",
  project: "voiceagent-environments",
  program: path.relative(ROOT, path.resolve(ROOT, "examples/environments", main)),
  token: `e2e-env-${randomUUID()}`,
  config: {
    "voiceagent-environments:mainLine": { value: "+15550010003" },
    "voiceagent-environments:mainLineAgent": { value: "support" },
  },
});
const requests = (route: string) => ctx.emu.stats.byRoute[route] ?? 0;

describe("examples/environments end to end", () => {
  it("binds the main line to support, then config moves it to sales in place without cancelling", async () => {
    const up = await ctx.t.stack.up();
    const support = up.outputs.supportAgentId?.value as string;
    const sales = up.outputs.salesAgentId?.value as string;
    expect((await ctx.client.numbers.get("+15550010003")).inbound_agent?.id).toBe(support);

    await ctx.t.stack.setConfig("voiceagent-environments:mainLineAgent", { value: "sales" });
    const binds = requests("POST /v1/numbers/update");
    const flip = await ctx.t.stack.up();
    expect(changes(flip.summary.resourceChanges ?? {})).toEqual({ update: 1 });
    const line = await ctx.client.numbers.get("+15550010003");
    expect(line.inbound_agent?.id).toBe(sales);
    expect(line.active).toBe(true);
    expect(requests("POST /v1/numbers/update") - binds).toBe(1);
    expect(requests("POST /v1/numbers/cancel")).toBe(0);
  });

  it("a call to a number outside allowedDestinations fails at preview, before anything is dialled", async () => {
    await ctx.t.stack.setAllConfig({
      "voiceagent-environments:placeTestCall": { value: "true" },
      "voiceagent-environments:testCallTo": { value: "+15559990000" },
    });
    const before = ctx.emu.stats.total;
    await expect(ctx.t.stack.preview()).rejects.toThrow(/toNumber \+15559990000 is not in allowedDestinations/);
    expect(ctx.emu.stats.total).toBe(before);
  });

  it("places an allowed test call; a change replaces it, ending the old call first", async () => {
    await ctx.t.stack.setConfig("voiceagent-environments:testCallTo", { value: "+15557650001" });
    const preview = await ctx.t.stack.preview();
    expect(changes(preview.changeSummary)).toEqual({ create: 1 });
    expect(requests("POST /v1/calls/create")).toBe(0);
    await ctx.t.stack.up();
    const [first] = await ctx.client.calls.list.all();
    expect(first).toMatchObject({ status: "not_started", to_number: "+15557650001" });

    await ctx.t.stack.setConfig("voiceagent-environments:testCallTo", { value: "+15557650002" });
    const replaced = await ctx.t.stack.up();
    expect(changes(replaced.summary.resourceChanges ?? {})).toEqual({ replace: 1 });
    const calls = await ctx.client.calls.list.all();
    expect(calls.find((c) => c.id === first!.id)?.status).toBe("ended");
    expect(calls.find((c) => c.id !== first!.id)).toMatchObject({ status: "not_started", to_number: "+15557650002" });
  });

  it("with cancelOnDelete, changing the number replaces the binding and never cancels the old number", async () => {
    await ctx.t.stack.setAllConfig({
      "voiceagent-environments:placeTestCall": { value: "false" },
      "voiceagent-environments:cancelOnDelete": { value: "true" },
    });
    await ctx.t.stack.up();
    await ctx.t.stack.setConfig("voiceagent-environments:mainLine", { value: "+15550010004" });
    const up = await ctx.t.stack.up();
    expect(up.summary.resourceChanges?.replace).toBe(1);
    const old = await ctx.client.numbers.get("+15550010003");
    expect(old.active).toBe(true);
    expect(old.inbound_agent).toBeNull();
    expect(requests("POST /v1/numbers/cancel")).toBe(0);
    expect((await ctx.client.numbers.get("+15550010004")).inbound_agent?.id).toBe(up.outputs.salesAgentId?.value);
  });

  it("destroy cancels a cancelOnDelete number and ends nothing else", async () => {
    await ctx.t.stack.destroy();
    expect(requests("POST /v1/numbers/cancel")).toBe(1);
    expect((await ctx.client.numbers.get("+15550010004")).active).toBe(false);
    expect((await ctx.client.numbers.get("+15550010003")).active).toBe(true);
    expect((await ctx.client.calls.list.all()).map((c) => c.status)).toEqual(["ended", "ended"]);
  });
});
