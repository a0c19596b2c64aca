// The native plugin's process contract: the bundled file spawned as the engine spawns it (its
// flags, then the engine's address last), its port line first on stdout, the handshake over gRPC,
// a failure to start, and notes sent through the engine's Log RPC. Everything the provider does
// is tested in-process: plugin/provider.test.ts (the plain provider), plugin/grpc.test.ts (the
// protobuf edge).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Empty } from "google-protobuf/google/protobuf/empty_pb.js";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb.js";
import {
  ConfigureRequest,
  type ConfigureResponse,
  CreateRequest,
  type CreateResponse,
  DeleteRequest,
  GetSchemaRequest,
  type GetSchemaResponse,
} from "@pulumi/pulumi/proto/provider_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/consumer.js";
import { testEmulator } from "../helpers/emulator.js";
import {
  PLUGIN_BIN,
  rpc,
  startFakeEngine,
  startPlugin,
  struct,
  type FakeEngine,
  type PluginProcess,
} from "./plugin-process.js";

const secret = (value: unknown) => ({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value });
const VERSION = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, "provider", "package.json"), "utf8")) as { version: string }
).version;
const urn = (kind: string, name: string) => `urn:pulumi:dev::proj::voiceagent:index:${kind}::${name}`;
const type = (kind: string) => `voiceagent:index:${kind}`;

let engine: FakeEngine;
let live: PluginProcess; // configured against the emulator, logging to the fake engine
let stopEmulator: () => Promise<unknown>;

async function configure(p: PluginProcess, config: Record<string, unknown>) {
  return rpc<ConfigureResponse>((cb) =>
    p.client.configure(
      new ConfigureRequest().setArgs(struct(config)).setAcceptsecrets(true).setType("pulumi:providers:voiceagent"),
      cb,
    ),
  );
}
function create(p: PluginProcess, kind: string, props: Record<string, unknown>, preview = false) {
  return rpc<CreateResponse>((cb) =>
    p.client.create(
      new CreateRequest().setUrn(urn(kind, "r")).setType(type(kind)).setProperties(struct(props)).setPreview(preview),
      cb,
    ),
  );
}
beforeAll(async () => {
  const t = await testEmulator();
  const baseUrl = await t.emu.app.listen({ host: "127.0.0.1", port: 0 });
  stopEmulator = () => t.emu.app.close();
  engine = await startFakeEngine();
  // As the engine runs it with logging flowed: its flags first, its address last.
  live = await startPlugin(["--logtostderr", "-v=9", engine.address]);
  // The token as the engine sends it in Configure's args: wrapped as a secret.
  await configure(live, { baseUrl, token: secret(t.tokenA), version: VERSION });
});
afterAll(async () => {
  await live?.stop();
  await Promise.all([engine?.stop(), stopEmulator?.()]);
});

describe("the plugin process", () => {
  it("writes its port line first and nothing before it, and serves its version and the package schema", async () => {
    expect(live.stdout()).toMatch(/^\d+\n$/);
    const info = await rpc<PluginInfo>((cb) => live.client.getPluginInfo(new Empty(), cb));
    expect(info.getVersion()).toBe(VERSION);
    const served: unknown = JSON.parse(
      (await rpc<GetSchemaResponse>((cb) => live.client.getSchema(new GetSchemaRequest(), cb))).getSchema(),
    );
    // The committed schema, embedded in the bundle (the schema's own tests check its content).
    expect(served).toEqual(JSON.parse(readFileSync(path.join(REPO_ROOT, "provider", "schema.json"), "utf8")));
  });

  it('runs as the one file it is, also where the nearest package.json says "type": "module" (Node then reads it as an ES module)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "va-plugin-esm-"));
    try {
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
      copyFileSync(PLUGIN_BIN, path.join(dir, "pulumi-resource-voiceagent"));
      const p = await startPlugin([], {}, path.join(dir, "pulumi-resource-voiceagent"));
      try {
        expect((await rpc<PluginInfo>((cb) => p.client.getPluginInfo(new Empty(), cb))).getVersion()).toBe(VERSION);
      } finally {
        await p.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a failure to start is one line on stderr and exit code 1, with no port line", async () => {
    // Started by hand with something that is not the engine's address.
    const err = await startPlugin(["not-an-address"]).then(
      async (p) => {
        await p.stop();
        return undefined;
      },
      (e: unknown) => String(e),
    );
    expect(err).toMatch(/exited \(1\) before its port line: pulumi-resource-voiceagent: [^\n]+\n$/);
    expect(err).not.toMatch(/\n\s+at /);
  });
});

describe("notes", () => {
  it("a note (destroy only forgets an agent) reaches the engine's Log with the resource's URN before the delete answers", async () => {
    const v = await create(live, "Voice", { voiceName: "alloy", pitch: 0, rate: 1, type: "voice_base" });
    const a = await create(live, "Agent", { prompt: "bye", voice: v.getId(), actions: [] });
    const at = engine.logs.length;
    await rpc<Empty>((cb) =>
      live.client.delete(
        new DeleteRequest()
          .setUrn(urn("Agent", "bye"))
          .setType(type("Agent"))
          .setId(a.getId())
          .setProperties(a.getProperties()),
        cb,
      ),
    );
    const logged = engine.logs.slice(at);
    expect(logged).toEqual([{ severity: 1, message: expect.stringContaining(a.getId()), urn: urn("Agent", "bye") }]);
    expect(live.stderr()).not.toContain(a.getId());
  });
});
