import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useEmulatorStack } from "../helpers/e2e.js";

const ctx = useEmulatorStack({
  name: "basic",
  project: "voiceagent-basic",
  program: "dist/examples/basic/index.js",
  token: `e2e-basic-${randomUUID()}`,
  credentials: "env",
});

describe("examples/basic with credentials from the environment", () => {
  it("up, then preview with no changes, then destroy", async () => {
    const up = await ctx.t.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    expect(up.outputs.numberActive?.value).toBe(true);
    expect((await ctx.t.stack.preview()).changeSummary).toEqual({ same: 4 });
    expect((await ctx.t.stack.destroy()).summary.resourceChanges).toEqual({ delete: 4 });
  });
});
