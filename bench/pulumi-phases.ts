// Runs the benchmark graph through the real CLI, phase by phase, for one mode and size.
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation/index.js";
import type { RunningEmulator } from "voiceagent-emulator";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** One phase's figures. */
export interface PhaseResult {
  phase: string;
  seconds: number;
  /** Requests the emulator received during the phase. */
  requests: number;
  /** GET requests among them (reads). */
  reads: number;
  /** Peak resident memory of the provider process (dynamic provider or native plugin), MiB (0 when none ran). */
  providerPeakMiB: number;
  /** After `up (create)` only: the state's bytes per agent or number resource (`stack export`, JSON). */
  stateBytesPerResource?: number;
}

/** Which classes declare the graph (programs/graph.ts); native-floor is native served by the no-op plugin. */
export type BenchMode = "ours" | "floor" | "native" | "native-floor";

/** The processes whose memory a phase samples: the dynamic provider, or a plugin by its file name. */
const PROVIDER_PROCESS = /cmd\/dynamic-provider|pulumi-resource-voiceagent/;

/**
 * Samples the peak RSS (VmHWM) of every provider process of this stack while a phase runs: those
 * whose environment holds its backend (the engine passes its own to the plugins it starts), not
 * other programs' on the same machine.
 */
function startMemorySampler(backend: string): () => number {
  const mark = `PULUMI_BACKEND_URL=file://${backend}\0`;
  let peakKiB = 0;
  const sample = () => {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        if (!PROVIDER_PROCESS.test(cmd) || !readFileSync(`/proc/${pid}/environ`, "utf8").includes(mark)) continue;
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) peakKiB = Math.max(peakKiB, Number(hwm[1]));
      } catch {
        // The process ended between listing and reading.
      }
    }
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return Math.round(peakKiB / 1024);
  };
}

/** Runs up, a no-change preview, refresh, up with 10% changed, destroy; returns each phase. */
export async function runPhases(opts: {
  mode: BenchMode;
  /** The folder holding the pulumi-resource-voiceagent the native modes run (Pulumi.yaml `plugins.providers`). */
  pluginDir?: string;
  n: number;
  emulator: RunningEmulator;
  token: string;
  voice: string;
  /** Let the engine write state once at the end instead of after every step (PULUMI_SKIP_CHECKPOINTS). */
  skipCheckpoints?: boolean;
}): Promise<PhaseResult[]> {
  const id = `${opts.mode}-${opts.n}-${randomUUID().slice(0, 6)}`;
  const workDir = path.join(ROOT, ".pulumi-state", "bench", id);
  const backend = path.join(ROOT, ".pulumi-state", "bench-backends", id);
  mkdirSync(workDir, { recursive: true });
  mkdirSync(backend, { recursive: true });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "bench", workDir },
    {
      projectSettings: { name: "voiceagent-bench", runtime: { name: "nodejs", options: { typescript: false } }, main: path.relative(workDir, path.join(ROOT, "dist/bench/programs/graph.js")) },
      envVars: {
        PULUMI_BACKEND_URL: `file://${backend}`,
        PULUMI_CONFIG_PASSPHRASE: "bench",
        ...(opts.skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
      },
    },
  );
  if (opts.pluginDir) appendFileSync(path.join(workDir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: voiceagent\n      path: ${opts.pluginDir}\n`);
  await stack.setAllConfig({
    "voiceagent:baseUrl": { value: opts.emulator.url },
    "voiceagent:token": { value: opts.token, secret: true },
    "bench:n": { value: String(opts.n) },
    "bench:mode": { value: opts.mode },
    "bench:voice": { value: opts.voice },
    "bench:generation": { value: "0" },
  });

  const results: PhaseResult[] = [];
  const phase = async (name: string, run: () => Promise<unknown>) => {
    const stats = opts.emulator.stats;
    opts.emulator.resetStats();
    const stop = startMemorySampler(backend);
    const started = performance.now();
    await run();
    const seconds = (performance.now() - started) / 1000;
    const reads = Object.entries(stats.byRoute).filter(([r]) => r.startsWith("GET ")).reduce((s, [, c]) => s + c, 0);
    results.push({ phase: name, seconds, requests: stats.total, reads, providerPeakMiB: stop() });
  };

  try {
    await phase("up (create)", () => stack.up());
    results[0]!.stateBytesPerResource = await stateBytesPerResource(stack);
    await phase("preview (no change)", () => stack.preview());
    await phase("refresh", () => stack.refresh());
    await stack.setConfig("bench:generation", { value: "1" });
    await phase("up (10% changed)", () => stack.up());
    await phase("destroy", () => stack.destroy());
  } finally {
    rmSync(workDir, { recursive: true, force: true });
    rmSync(backend, { recursive: true, force: true });
  }
  return results;
}

/** The mean size of an agent's or number's entry in the exported state, in bytes of JSON. */
async function stateBytesPerResource(stack: Stack): Promise<number> {
  const deployment: { resources?: { type: string }[] } = (await stack.exportStack()).deployment;
  const resources = deployment.resources ?? [];
  const graph = resources.filter((r) => /:(Agent|PhoneNumber)$/.test(r.type));
  const bytes = graph.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0);
  return graph.length ? Math.round(bytes / graph.length) : 0;
}
