// Autonaming decided at Check, in-process (the CLI scenarios are in autonaming.test.ts): what the
// native plugin answers for each mode the engine sends in CheckRequest.autonaming, through its
// protobuf edge; what its Handshake and Configure say it supports; and the dynamic entry's check,
// which gets the logical name from the class and no configuration.
import { randomUUID } from "node:crypto";
import { Struct } from "google-protobuf/google/protobuf/struct_pb.js";
import * as pb from "@pulumi/pulumi/proto/provider_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { runtimeFor } from "../../provider/dynamic/runtimes.js";
import { Host } from "../../provider/host.js";
import { callUnary, inProcessPlugin } from "../helpers/plugin-harness.js";

const token = `autoname-${randomUUID()}`;
let current: RunningEmulator;
let old: RunningEmulator;
beforeAll(async () => {
  [current, old] = await Promise.all([
    startEmulator({ tokens: [token], seed: true, api: "2024" }),
    startEmulator({ tokens: [token], seed: true, api: "2023" }),
  ]);
});
afterAll(async () => Promise.all([current?.close(), old?.close()]));

const Mode = pb.CheckRequest.AutonamingOptions.Mode;
const voiceOf = (e: RunningEmulator) => String(e.seeds.get(token)?.voices[0]);

/** A plugin configured against `e`, and its Check as the engine sends it for agent `front`. */
async function plugin(e: RunningEmulator) {
  const { provider, grpc } = inProcessPlugin();
  await provider.configure({ config: { baseUrl: e.url, token }, plainKeys: [] });
  const base = { prompt: "You answer.", voice: voiceOf(e) };
  return async (o: {
    news?: Record<string, unknown>;
    olds?: Record<string, unknown>;
    mode?: pb.CheckRequest.AutonamingOptions.Mode;
    proposed?: string;
  }) => {
    const req = new pb.CheckRequest()
      .setUrn("urn:pulumi:dev::proj::voiceagent:index:Agent::front")
      .setName("front")
      .setType("voiceagent:index:Agent")
      .setOlds(Struct.fromJavaScript(JSON.parse(JSON.stringify(o.olds ?? {}))))
      .setNews(Struct.fromJavaScript({ ...base, ...o.news }));
    if (o.mode !== undefined)
      req.setAutonaming(new pb.CheckRequest.AutonamingOptions().setMode(o.mode).setProposedName(o.proposed ?? ""));
    const resp = await callUnary(grpc.check, req);
    return {
      name: resp.getInputs()?.toJavaScript().name,
      failures: resp.getFailuresList().map((f) => f.getReason()),
    };
  };
}

describe("the native plugin's Check names a new agent", () => {
  it("by its logical name without configuration, by the engine's name when proposed or enforced, by none when disabled", async () => {
    const check = await plugin(current);
    expect(await check({})).toEqual({ name: "front", failures: [] });
    expect(await check({ mode: Mode.PROPOSE, proposed: "front-3f9a" })).toEqual({ name: "front-3f9a", failures: [] });
    expect(await check({ mode: Mode.ENFORCE, proposed: "team-front" })).toEqual({ name: "team-front", failures: [] });
    expect(await check({ mode: Mode.DISABLE })).toEqual({ name: undefined, failures: [] });
  });

  it("never over a name the program writes, an adopted agent's, or an existing agent's (which keeps its own, or none)", async () => {
    const check = await plugin(current);
    const enforce = { mode: Mode.ENFORCE, proposed: "team-front" };
    expect((await check({ ...enforce, news: { name: "Front desk" } })).name).toBe("Front desk");
    expect((await check({ ...enforce, news: { agentId: randomUUID() } })).name).toBeUndefined();
    const olds = { prompt: "You answer.", voice: voiceOf(current) };
    expect((await check({ ...enforce, olds: { ...olds, name: "front" } })).name).toBe("front");
    expect((await check({ ...enforce, olds })).name).toBeUndefined();
  });

  it("gives no name on the 2023 interface, and refuses an enforced one there before sending anything", async () => {
    const check = await plugin(old);
    expect(await check({})).toEqual({ name: undefined, failures: [] });
    const enforced = await check({ mode: Mode.ENFORCE, proposed: "team-front" });
    expect(enforced.failures).toEqual([
      expect.stringMatching(/^name: pulumi:autonaming enforces .*2023.*nothing was sent/),
    ]);
  });

  it("refuses a proposed name the service would refuse, as if the program had written it", async () => {
    const check = await plugin(current);
    const r = await check({ mode: Mode.PROPOSE, proposed: "" });
    expect(r.failures).toEqual([expect.stringMatching(/^name /)]);
  });
});

describe("what the plugin tells the engine", () => {
  it("Handshake and Configure: autonaming and secrets (Construct needs them) supported, no resources or outputs", async () => {
    const { grpc } = inProcessPlugin();
    const hs = await callUnary(grpc.handshake, new pb.ProviderHandshakeRequest().setEngineAddress("127.0.0.1:1"));
    expect(hs.toObject()).toMatchObject({
      acceptSecrets: true,
      acceptResources: false,
      acceptOutputs: false,
      supportsAutonamingConfiguration: true,
    });
    const cfg = await callUnary(
      grpc.configure,
      new pb.ConfigureRequest().setArgs(Struct.fromJavaScript({ baseUrl: current.url })),
    );
    expect(cfg.getSupportsAutonamingConfiguration()).toBe(true);
    expect(cfg.getSupportspreview()).toBe(true);
  });
});

describe("the dynamic entry's check", () => {
  it("names a new agent by the logical name its class hands over, records no trace of it, and leaves an existing agent's name alone", async () => {
    const agent = runtimeFor("Agent", new Host());
    const settings = {
      baseUrl: current.url,
      token,
      config: { get: (k: string) => (k === "voiceagent:api" ? "2024" : undefined) },
    };
    const news = { prompt: "You answer.", voice: voiceOf(current), __logicalName: "front" };
    const made = await agent.check(settings, {}, news);
    expect(made.failures ?? []).toEqual([]);
    expect(made.inputs?.name).toBe("front");
    expect(made.inputs && "__logicalName" in made.inputs).toBe(false);
    const { __logicalName: _n, ...recorded } = news;
    const kept = await agent.check(settings, recorded, news);
    expect(kept.inputs?.name).toBeUndefined();
  });
});
