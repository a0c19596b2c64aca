// A stack moving between the dynamic and the native provider: the recorded `__provider` on one
// side only is a change (or the engine would copy the old outputs forever), and its update
// answers from the state. No settings are given and none are in the environment, so any attempt
// to reach the service would throw instead of answering.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";

const agent = runtimeFor("Agent");
const shim = "exports.handler = () => ({})"; // stands for the serialized provider text
const voice = randomUUID();
const recorded = { prompt: "p", voice, actions: [], userId: "user-1" };
const program = { prompt: "p", voice, actions: [] };

beforeEach(() => {
  vi.stubEnv("VOICEAGENT_BASE_URL", "");
  vi.stubEnv("VOICEAGENT_TOKEN", "");
});
afterEach(() => vi.unstubAllEnvs());

describe("moving between the dynamic and the native provider", () => {
  it("native → dynamic: state without __provider, program with it, is an update, not a replacement", async () => {
    expect(await agent.diff(undefined, "a1", recorded, { ...program, __provider: shim })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("dynamic → native: state with __provider, program without it, is an update, not a replacement", async () => {
    expect(await agent.diff(undefined, "a1", { ...recorded, __provider: shim }, program)).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("the same provider on both sides stays no change", async () => {
    expect(
      await agent.diff(undefined, "a1", { ...recorded, __provider: shim }, { ...program, __provider: shim }),
    ).toMatchObject({ changes: false });
    expect(await agent.diff(undefined, "a1", recorded, program)).toMatchObject({ changes: false });
  });

  it("the move's update keeps the recorded outputs and sends nothing", async () => {
    expect((await agent.update(undefined, "a1", recorded, { ...program, __provider: shim })).outs).toEqual(recorded);
    expect((await agent.update(undefined, "a1", { ...recorded, __provider: shim }, program)).outs).toEqual(recorded);
  });

  it("a move with a real change still goes to the service", async () => {
    await expect(
      agent.update(undefined, "a1", recorded, { ...program, prompt: "q", __provider: shim }),
    ).rejects.toThrow(/baseUrl is not set/);
    await expect(
      agent.update(undefined, "a1", recorded, { ...program, prompt: "q", __provider: shim }),
    ).rejects.toMatchObject({ code: "E_SETTINGS" });
  });
});
