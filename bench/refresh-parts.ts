// What the native plugin's CPU in a refresh is made of (issue 32), without the engine: the plugin
// process spawned as the engine spawns it and driven over gRPC as a refresh drives it (Configure,
// then for each resource a Read and the Diff the engine sends after it, 32 at a time), against
// the no-op native floor in the same run. CPU is the plugin process's own (/proc), per part: start
// to the port line, Configure (the first request loads the kinds, zod and got), the refresh
// (listings included), and the same refresh again in the same process (listings still open, code
// compiled: what is left per resource).
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { credentials } from "@grpc/grpc-js";
import type { Struct as StructType } from "google-protobuf/google/protobuf/struct_pb.js";
import type {
  ConfigureResponse,
  CreateResponse,
  DiffResponse,
  ReadResponse,
} from "@pulumi/pulumi/proto/provider_pb.js";
import { startBenchEmulator } from "./bench-emulator.js";
import { bundleNativeFloor } from "./native-floor/bundle.js";
import { PLUGIN_BIN } from "./plugin-start.js";
import { benchNumber } from "./programs/numbers.js";

const require = createRequire(import.meta.url);
const {
  Struct,
}: typeof import("google-protobuf/google/protobuf/struct_pb.js") = require("google-protobuf/google/protobuf/struct_pb.js");
const {
  ResourceProviderClient,
}: typeof import("@pulumi/pulumi/proto/provider_grpc_pb.js") = require("@pulumi/pulumi/proto/provider_grpc_pb.js");
const pb: typeof import("@pulumi/pulumi/proto/provider_pb.js") = require("@pulumi/pulumi/proto/provider_pb.js");

/** One plugin's refresh, CPU ms of its process per part. */
export interface RefreshParts {
  plugin: "ours" | "native floor";
  startMs: number;
  configureMs: number;
  refreshMs: number;
  /** The same refresh again in the same process. */
  againMs: number;
  /** Requests the emulator received during the first refresh. */
  requests: number;
}

/** One resource as the state records it. */
interface Recorded {
  type: string;
  urn: string;
  id: string;
  outputs: StructType;
  inputs: StructType;
}

/** User + system CPU of a process so far, in ms (/proc/<pid>/stat fields 14 and 15, in ticks of 10 ms). */
function cpuMsOf(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

type Client = InstanceType<typeof ResourceProviderClient>;

/** Spawns a plugin, waits for its port line, and connects. */
async function startPlugin(exe: string): Promise<{ child: ChildProcess; client: Client; startMs: number }> {
  const child = spawn(exe, [], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(Number(out.trim()));
    });
    child.once("exit", (code) => reject(new Error(`plugin exited (${code}) before its port line`)));
  });
  const startMs = cpuMsOf(child.pid);
  return { child, client: new ResourceProviderClient(`127.0.0.1:${port}`, credentials.createInsecure()), startMs };
}

async function stopPlugin({ child, client }: { child: ChildProcess; client: Client }): Promise<void> {
  client.close();
  const exited = new Promise((r) => child.once("exit", r));
  child.kill();
  await exited;
}

/** One unary call, started by `start` with its callback. */
function unary<Res>(start: (cb: (err: Error | null, res: Res) => void) => unknown): Promise<Res> {
  return new Promise((resolve, reject) => start((err, res) => (err ? reject(err) : resolve(res))));
}

const configureRequest = (baseUrl: string, token: string) =>
  // The token as the engine sends it: a secret.
  new pb.ConfigureRequest().setArgs(
    Struct.fromJavaScript({
      baseUrl,
      token: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: token },
    }),
  );

/**
 * `n` agents and `n` bindings made through our plugin, then refreshed by ours and by the native
 * floor, `rounds` times each, interleaved (ours, floor, ours, floor...), one emulator.
 */
export async function benchRefreshParts(n: number, rounds: number): Promise<RefreshParts[]> {
  const { emulator, token, voice } = await startBenchEmulator(n);
  const floorDir = await bundleNativeFloor();
  try {
    const made = await startPlugin(PLUGIN_BIN);
    await unary<ConfigureResponse>((cb) => made.client.configure(configureRequest(emulator.url, token), cb));
    const recorded: Recorded[] = [];
    const create = async (kind: string, name: string, props: Record<string, string>) => {
      const type = `voiceagent:index:${kind}`;
      const urn = `urn:pulumi:bench::bench::${type}::${name}`;
      const inputs = Struct.fromJavaScript(props);
      const res = await unary<CreateResponse>((cb) =>
        made.client.create(new pb.CreateRequest().setUrn(urn).setType(type).setProperties(inputs), cb),
      );
      recorded.push({ type, urn, id: res.getId(), outputs: res.getProperties() ?? inputs, inputs });
      return res.getId();
    };
    for (let i = 0; i < n; i += 16) {
      await Promise.all(
        Array.from({ length: Math.min(16, n - i) }, async (_, j) => {
          const agent = await create("Agent", `agent-${i + j}`, { prompt: `You are agent ${i + j}.`, voice });
          await create("PhoneNumber", `line-${i + j}`, { number: benchNumber(i + j), inboundAgent: agent });
        }),
      );
    }
    await stopPlugin(made);

    const refresh = async (client: Client) => {
      let next = 0;
      const one = async (r: Recorded) => {
        const readRequest = new pb.ReadRequest()
          .setId(r.id)
          .setUrn(r.urn)
          .setType(r.type)
          .setProperties(r.outputs)
          .setInputs(r.inputs);
        const read = await unary<ReadResponse>((cb) => client.read(readRequest, cb));
        const diffRequest = new pb.DiffRequest()
          .setId(r.id)
          .setUrn(r.urn)
          .setType(r.type)
          .setOlds(read.getProperties() ?? r.outputs)
          .setNews(read.getInputs() ?? r.inputs)
          .setOldInputs(r.inputs);
        const diff = await unary<DiffResponse>((cb) => client.diff(diffRequest, cb));
        if (diff.getChanges() === pb.DiffResponse.DiffChanges.DIFF_SOME) throw new Error(`${r.urn} drifted`);
      };
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next < recorded.length) {
            const r = recorded[next++];
            if (r) await one(r);
          }
        }),
      );
    };
    const results: RefreshParts[] = [];
    const plugins = [
      ["ours", PLUGIN_BIN],
      ["native floor", path.join(floorDir, "pulumi-resource-voiceagent")],
    ] as const;
    for (let round = 0; round < rounds; round++) {
      for (const [plugin, exe] of plugins) {
        const p = await startPlugin(exe);
        const pid = p.child.pid;
        await unary<ConfigureResponse>((cb) => p.client.configure(configureRequest(emulator.url, token), cb));
        const configured = cpuMsOf(pid);
        const sent = emulator.stats.total;
        await refresh(p.client);
        const refreshed = cpuMsOf(pid);
        const requests = emulator.stats.total - sent;
        await refresh(p.client);
        const again = cpuMsOf(pid);
        await stopPlugin(p);
        results.push({
          plugin,
          startMs: p.startMs,
          configureMs: configured - p.startMs,
          refreshMs: refreshed - configured,
          againMs: again - refreshed,
          requests,
        });
      }
    }
    return results;
  } finally {
    rmSync(floorDir, { recursive: true, force: true });
    await emulator.close();
  }
}
