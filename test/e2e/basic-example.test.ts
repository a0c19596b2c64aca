import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { createTestStack, type TestStack } from "../helpers/pulumi-stack.js";

const TOKEN = `e2e-basic-${randomUUID()}`;
let emu: RunningEmulator;
let t: TestStack;
beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN], seed: true });
  t = await createTestStack({
    name: "basic",
    project: "voiceagent-basic",
    program: "dist/examples/basic/index.js",
    env: { VOICEAGENT_BASE_URL: emu.url, VOICEAGENT_TOKEN: TOKEN },
  });
});
afterAll(async () => {
  await t?.dispose();
  await emu?.close();
});

describe("examples/basic with credentials from the environment", () => {
  it("up, then preview with no changes, then destroy", async () => {
    const up = await t.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 4 });
    expect(up.outputs.numberActive?.value).toBe(true);
    expect((await t.stack.preview()).changeSummary).toEqual({ same: 4 });
    expect((await t.stack.destroy()).summary.resourceChanges).toEqual({ delete: 4 });
  });
});
