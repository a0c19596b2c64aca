// The native plugin's start, as the engine meets it once per provider per command: from spawn to
// its port line (what the engine waits for), then to its first real answer (CheckConfig, which
// loads the kinds), and the process's peak RSS after answering. With Node's compile cache cold (a
// fresh cache folder: the first command on a machine), warm (every command after), and disabled;
// for the script the npm package ships (run by the machine's Node) and for the single executable a
// release ships (Node inside, built here as `npm run release` builds it), side by side in one run.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { credentials } from "@grpc/grpc-js";
import type { CheckResponse } from "@pulumi/pulumi/proto/provider_pb.js";
import { hostPlatform } from "../scripts/release/platforms.js";
import { buildExecutable } from "../scripts/release/sea.js";

// The generated proto modules are CommonJS that Node's ESM loader cannot see the names of.
const require = createRequire(import.meta.url);
const {
  Struct,
}: typeof import("google-protobuf/google/protobuf/struct_pb.js") = require("google-protobuf/google/protobuf/struct_pb.js");
const {
  ResourceProviderClient,
}: typeof import("@pulumi/pulumi/proto/provider_grpc_pb.js") = require("@pulumi/pulumi/proto/provider_grpc_pb.js");
const {
  CheckRequest,
}: typeof import("@pulumi/pulumi/proto/provider_pb.js") = require("@pulumi/pulumi/proto/provider_pb.js");

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The bundled plugin the build makes. */
export const PLUGIN_BIN = path.join(ROOT, "provider", "dist", "plugin", "pulumi-resource-voiceagent");

/** One start of the plugin. */
export interface PluginStart {
  portMs: number;
  /** CPU time (user + system) the process spent up to its port line: what load on the machine does not inflate. */
  cpuMs: number;
  readyMs: number;
  peakRssMiB: number;
}

/** The floor: Node itself starting a bare TCP server and printing its port, on this machine, now. */
const BARE = `const s = require("net").createServer().listen(0, "127.0.0.1", () => process.stdout.write(s.address().port + "\\n"));`;

/** Starts the plugin `exe` (or the bare floor) once, times its port line (and the plugin's first CheckConfig), reads its peak RSS, stops it. */
async function startOnce(env: NodeJS.ProcessEnv, exe: string | "bare"): Promise<PluginStart> {
  const bare = exe === "bare";
  const t0 = performance.now();
  const [cmd, args] = bare ? [process.execPath, ["-e", BARE]] : [exe, []];
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(Number(out.trim()));
    });
    child.once("exit", (code) => reject(new Error(`plugin exited (${code}) before its port line`)));
  });
  const portMs = performance.now() - t0;
  const cpuMs = cpuMsOf(child.pid);
  if (bare) {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
    child.kill();
    return { portMs, cpuMs, readyMs: portMs, peakRssMiB: hwm ? Number(hwm[1]) / 1024 : Number.NaN };
  }
  const client = new ResourceProviderClient(`127.0.0.1:${port}`, credentials.createInsecure());
  const req = new CheckRequest()
    .setUrn("urn:pulumi:bench::bench::pulumi:providers:voiceagent::default")
    .setNews(Struct.fromJavaScript({ baseUrl: "http://127.0.0.1:9", token: "t" }));
  await new Promise<CheckResponse>((resolve, reject) =>
    client.checkConfig(req, (err, res) => (err ? reject(err) : resolve(res))),
  );
  const readyMs = performance.now() - t0;
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
  client.close();
  const exited = new Promise((r) => child.once("exit", r));
  child.kill();
  await exited;
  return { portMs, cpuMs, readyMs, peakRssMiB: hwm ? Number(hwm[1]) / 1024 : Number.NaN };
}

/** User + system CPU of a process so far, in ms (/proc/<pid>/stat fields 14 and 15, in clock ticks of 10 ms). */
function cpuMsOf(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Figures over `runs` starts in each mode. */
export interface PluginStartResult {
  mode:
    | "cold cache"
    | "warm cache"
    | "no cache"
    | "executable, cold cache"
    | "executable, warm cache"
    | "bare node (floor)";
  runs: number;
  portMsMedian: number;
  portMsMax: number;
  cpuMsMean: number;
  readyMsMedian: number;
  peakRssMiB: number;
}

/** This machine's plugin executable, built into `dir` from the bundle as `npm run release` builds it. */
async function buildHostExecutable(dir: string): Promise<string> {
  const platform = hostPlatform();
  const version = process.env.VOICEAGENT_NODE_VERSION;
  if (!platform || !version)
    throw new Error(
      "no release platform for this machine, or VOICEAGENT_NODE_VERSION unset (run through npm run bench)",
    );
  const built = await buildExecutable(platform, `${PLUGIN_BIN}.cjs`, version, dir);
  if ("skipped" in built) throw new Error(`the plugin executable was not built: ${built.skipped}`);
  return built.file;
}

/**
 * Measures `runs` starts of the script with a cold compile cache (a fresh folder each), warm (one
 * folder), and none; of the executable cold and warm; and the bare floor.
 */
export async function benchPluginStart(runs: number): Promise<PluginStartResult[]> {
  const warmDir = mkdtempSync(path.join(os.tmpdir(), "va-compile-cache-"));
  const exeWarmDir = mkdtempSync(path.join(os.tmpdir(), "va-compile-cache-"));
  const exeDir = mkdtempSync(path.join(os.tmpdir(), "va-plugin-exe-"));
  const cold = () => ({ NODE_COMPILE_CACHE: mkdtempSync(path.join(os.tmpdir(), "va-compile-cache-")) });
  const results: PluginStartResult[] = [];
  try {
    mkdirSync(exeDir, { recursive: true });
    const exe = await buildHostExecutable(exeDir);
    const modes: [PluginStartResult["mode"], string, () => NodeJS.ProcessEnv][] = [
      ["cold cache", PLUGIN_BIN, cold],
      ["warm cache", PLUGIN_BIN, () => ({ NODE_COMPILE_CACHE: warmDir })],
      ["no cache", PLUGIN_BIN, () => ({ NODE_DISABLE_COMPILE_CACHE: "1" })],
      ["executable, cold cache", exe, cold],
      ["executable, warm cache", exe, () => ({ NODE_COMPILE_CACHE: exeWarmDir })],
      ["bare node (floor)", "bare", () => ({})],
    ];
    await startOnce({ NODE_COMPILE_CACHE: warmDir }, PLUGIN_BIN); // fills the warm caches
    await startOnce({ NODE_COMPILE_CACHE: exeWarmDir }, exe);
    for (const [mode, cmd, env] of modes) {
      const starts: PluginStart[] = [];
      for (let i = 0; i < runs; i++) {
        const e = env();
        starts.push(await startOnce(e, cmd));
        if (mode.endsWith("cold cache") && e.NODE_COMPILE_CACHE)
          rmSync(e.NODE_COMPILE_CACHE, { recursive: true, force: true });
      }
      results.push({
        mode,
        runs,
        portMsMedian: median(starts.map((s) => s.portMs)),
        portMsMax: Math.max(...starts.map((s) => s.portMs)),
        cpuMsMean: starts.reduce((a, s) => a + s.cpuMs, 0) / starts.length,
        readyMsMedian: median(starts.map((s) => s.readyMs)),
        peakRssMiB: Math.max(...starts.map((s) => s.peakRssMiB)),
      });
    }
  } finally {
    for (const dir of [warmDir, exeWarmDir, exeDir]) rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
