// The plugin's Invoke through its protobuf edge, in-process, against the emulator: a function's
// secret keys reach the engine in its own secret wrapper (the engine keeps Invoke's secrets), the
// rest plain; argument problems come back as failures with nothing sent; a read that finds nothing
// fails with the status the engine shows, naming what was looked for.
import { randomUUID } from "node:crypto";
import { Struct } from "google-protobuf/google/protobuf/struct_pb.js";
import { InvokeRequest } from "@pulumi/pulumi/proto/provider_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "pulumi-voiceagent/client";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import {
  callUnary,
  configuredPlugin,
  engineSecret,
  type CallFailure,
  type InProcessPlugin,
} from "../helpers/plugin-harness.js";

const secret = engineSecret;
const struct = (props: Record<string, unknown>): Struct => Struct.fromJavaScript(JSON.parse(JSON.stringify(props)));
const token = `invoke-${randomUUID()}`;
let emu: RunningEmulator;
let plugin: InProcessPlugin;
const invoke = (name: string, args: Record<string, unknown>) =>
  callUnary(plugin.grpc.invoke, new InvokeRequest().setTok(`voiceagent:index:${name}`).setArgs(struct(args)));

beforeAll(async () => {
  emu = await startEmulator({ tokens: [token], seed: true });
  plugin = await configuredPlugin(emu.url, token);
});
afterAll(async () => emu?.close());

describe("Invoke", () => {
  it("answers a call's transcript and error message in the engine's secret wrapper, its status plain", async () => {
    const client = createClient({ baseUrl: emu.url, token });
    const seed = emu.seeds.get(token)!;
    const agent = await client.agents.create({ prompt: "p", voice: seed.voices[0]! });
    const call = await client.calls.create({
      from_number: seed.numbers[0]!,
      to_number: "+15557654321",
      agent: agent.id,
    });
    const transcript = `Caller: ${randomUUID()}`;
    const rec = emu.store.get<{ id: string; user_id: string }>("call", call.user_id, call.id)!;
    emu.store.update("call", { ...rec, status: "ended", transcript });
    emu.resetStats();
    const res = await invoke("getCall", { id: call.id });
    expect(res.getFailuresList()).toEqual([]);
    expect(res.getReturn()?.toJavaScript()).toMatchObject({
      status: "ended",
      transcript: secret(transcript),
      errorMessage: secret(null),
      agent: agent.id,
    });
    expect(Object.keys(emu.stats.byRoute).every((route) => route.startsWith("GET "))).toBe(true);
  });

  it("answers a bad argument as a failure naming it, sending nothing", async () => {
    emu.resetStats();
    const res = await invoke("getPhoneNumber", { number: "555" });
    expect(res.getFailuresList().map((f) => f.getProperty())).toEqual(["number"]);
    expect(emu.stats.total).toBe(0);
  });

  it("fails a lookup that finds nothing with a message naming what it looked for", async () => {
    const failure = await invoke("getVoice", { voiceName: "nobody-speaks-like-this" }).then(
      () => undefined,
      (f: CallFailure) => f,
    );
    expect(failure?.details).toMatch(
      /getVoice: found no voice named "nobody-speaks-like-this" on this account.*nothing was changed/,
    );
  });

  it("a refused token: a lookup says how to set voiceagent:token, as a resource does, and its failure keeps the code", async () => {
    const refused = await configuredPlugin(emu.url, `not-${token}`);
    const failure = await callUnary(
      refused.grpc.invoke,
      new InvokeRequest().setTok("voiceagent:index:getVoice").setArgs(struct({ voiceName: "alloy" })),
    ).then(
      () => undefined,
      (f: CallFailure) => f,
    );
    expect(failure?.details).toMatch(/^voiceagent:getVoice failed: .*\b401\b/);
    expect(failure?.details).toMatch(/pulumi config set --secret voiceagent:token/);
    // Instead of the client's own advice, which names no setting a user can change.
    expect(failure?.details).not.toMatch(/Check the token the client was given/);
    // The plain provider's failure carries what the text says, for an in-process caller to branch on.
    await expect(
      refused.provider.invoke({ tok: "voiceagent:index:getVoice", args: { voiceName: "alloy" } }),
    ).rejects.toMatchObject({ code: "E_AUTH", mayHaveActed: false });
  });
});
