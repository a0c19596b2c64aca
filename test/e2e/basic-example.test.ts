// examples/basic as a user runs it: the folder copied out of the repository, pulumi-voiceagent
// installed from the packed tarball (not the repo's dist/), credentials in the environment.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/consumer.js";
import { useConsumer } from "../consumer/lifecycle.js";

const ctx = useConsumer({
  name: "example-basic",
  credentials: "env",
  project: (tarball) => ({
    files: { copyFrom: path.join(REPO_ROOT, "examples/basic") },
    redirect: { "pulumi-voiceagent": `file:${tarball}` },
  }),
});

describe("examples/basic with credentials from the environment", () => {
  it("up, then preview with no changes, then destroy", async () => {
    expect(await ctx.c.up()).toEqual({ create: 4 });
    const outputs = await ctx.c.outputs();
    expect(outputs.numberActive).toBe(true);
    expect((await ctx.client.numbers.get("+15550010001")).inbound_agent?.id).toBe(outputs.agentId);
    expect(await ctx.c.preview()).toEqual({ same: 4 });
    expect(await ctx.c.destroy()).toEqual({ delete: 4 });
  }, 180_000);
});
