// The native entry's functions (pulumi-voiceagent/native's getVoiceOutput, getPhoneNumbersOutput,
// getCallOutput, getAccount) and Agent.get, as test/native/fixtures/lookups's program calls them,
// in-process: a mock monitor hands each invoke and read to the plugin's own gRPC handlers
// (test/helpers/plugin-harness.ts), configured on an emulator. What the generated functions send
// (the token, the arguments, the plugin's version and download URL the engine routes by) and what
// they answer (the fields, a result holding a secret secret as a whole, the plain async form plain).
// What only the engine and the CLI decide stays on the CLI: the preview that sends only reads and
// the lookup that finds nothing failing at preview (test/sdk/scenario.ts on the plugin, in Python
// and Go; the native TypeScript program's printed failure in test/native/native.test.ts's
// functions test), a secret output encrypted in the state (test/sdk/scenario.ts).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Struct } from "google-protobuf/google/protobuf/struct_pb.js";
import * as pulumi from "@pulumi/pulumi";
import type { ResourceInvokeRequest } from "@pulumi/pulumi/proto/resource_pb.js";
import { InvokeRequest, ReadRequest } from "@pulumi/pulumi/proto/provider_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "pulumi-voiceagent/client";
import * as va from "pulumi-voiceagent/native";
import { startEmulator, type RunningEmulator } from "voiceagent-emulator";
import { REPO_ROOT } from "../helpers/consumer.js";
import { callUnary, configuredPlugin, PLUGIN_VERSION, type InProcessPlugin } from "../helpers/plugin-harness.js";

const token = `native-lookups-${randomUUID()}`;
let emu: RunningEmulator;
let plugin: InProcessPlugin;
/** Each invoke the program's functions sent to the monitor: the engine routes it by its version and URL. */
const invoked: { tok: string; version: string; url: string }[] = [];
type Invoke = (req: ResourceInvokeRequest, callback: (err: unknown, res: unknown) => void) => Promise<void>;
const settled = <T>(o: pulumi.Output<T>) => new Promise<T>((resolve) => o.apply(resolve));
const toStruct = async (props: Record<string, unknown>) =>
  Struct.fromJavaScript((await pulumi.runtime.serializeProperties("args", props)) as Record<string, never>);

beforeAll(async () => {
  emu = await startEmulator({ tokens: [token], seed: true });
  plugin = await configuredPlugin(emu.url, token);
  await pulumi.runtime.setMocks({
    // An invoke answered by the plugin's Invoke, its secrets in the engine's wrapper as the plugin sent them.
    call: async ({ token: tok, inputs }) => {
      const res = await callUnary(plugin.grpc.invoke, new InvokeRequest().setTok(tok).setArgs(await toStruct(inputs)));
      expect(res.getFailuresList()).toEqual([]);
      return pulumi.runtime.deserializeProperties(res.getReturn()!);
    },
    // Agent.get: a read by id, answered by the plugin's Read (no state, as the engine reads a `get`).
    newResource: async ({ type, name, id, inputs }) => {
      if (id === undefined) return { id: `${name}-id`, state: inputs };
      const got = await callUnary(
        plugin.grpc.read,
        new ReadRequest().setId(id).setType(type).setUrn(`urn:pulumi:stack::project::${type}::${name}`),
      );
      return { id: got.getId(), state: pulumi.runtime.deserializeProperties(got.getProperties()!) };
    },
  });
  const monitor = pulumi.runtime.getMonitor() as unknown as { invoke: Invoke };
  const answer = monitor.invoke.bind(monitor);
  monitor.invoke = (req, callback) => {
    invoked.push({ tok: req.getTok(), version: req.getVersion(), url: req.getPlugindownloadurl() });
    return answer(req, callback);
  };
}, 60_000);
afterAll(async () => emu?.close());

describe("the native entry's functions, through the plugin's Invoke", () => {
  it(`find the voice named alloy and the first free number (not linked), answer a call's status secret as a whole and the \
owner plain; Agent.get reads an existing agent; only reads are sent`, async () => {
    const client = createClient({ baseUrl: emu.url, token });
    const seed = emu.seeds.get(token)!;
    // Beforehand, outside any program: an agent, and a call it took that has ended.
    const existing = await client.agents.create({ prompt: `Confidential (${randomUUID()}).`, voice: seed.voices[1]! });
    const call = await client.calls.create({
      from_number: seed.numbers[3]!,
      to_number: "+15557654321",
      agent: existing.id,
    });
    const rec = emu.store.get<{ id: string; user_id: string }>("call", call.user_id, call.id)!;
    emu.store.update("call", { ...rec, status: "ended", transcript: `Caller: ${randomUUID()}.` });
    emu.resetStats();

    // The lookups program's own calls.
    const alloy = va.getVoiceOutput({ voiceName: "alloy" });
    const free = va.getPhoneNumbersOutput({ active: true, bound: false, linked: false });
    const status = va.getCallOutput({ id: call.id }).status;
    const owner = await va.getAccount().then((a) => a.userId);
    const got = va.Agent.get("existing", existing.id, {}, { additionalSecretOutputs: ["prompt"] });

    expect((await client.voices.get(await settled(alloy.id))).voice_name).toBe("alloy");
    const first = (await settled(free)).numbers[0];
    expect(first?.number).toBe(seed.numbers[0]);
    expect([first?.linked, first?.telephonyAccountConnection ?? null]).toEqual([false, null]);
    // A call's transcript and error message are secret, so the whole result, and its status with it.
    expect(await settled(status)).toBe("ended");
    expect(await pulumi.isSecret(status)).toBe(true);
    expect(await pulumi.isSecret(alloy)).toBe(false);
    // The plain async form answers a plain value.
    expect(owner).toBe(call.user_id);
    expect(await settled(got.voice)).toBe(seed.voices[1]);

    expect(invoked.map((i) => i.tok).sort()).toEqual(
      ["getAccount", "getCall", "getPhoneNumbers", "getVoice"].map((f) => `voiceagent:index:${f}`),
    );
    // Routed by the engine to the plugin every SDK names: the package's version, the schema's
    // download URL (its ${VERSION} filled in by the engine).
    const { pluginDownloadURL } = JSON.parse(readFileSync(path.join(REPO_ROOT, "provider/schema.json"), "utf8")) as {
      pluginDownloadURL: string;
    };
    for (const i of invoked) expect([i.tok, i.version, i.url]).toEqual([i.tok, PLUGIN_VERSION, pluginDownloadURL]);
    expect(Object.keys(emu.stats.byRoute).filter((route) => !route.startsWith("GET "))).toEqual([]);
  });
});
