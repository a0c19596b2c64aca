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
  /** Requests among them the emulator's rate limit answered 429 (0 when it has none). */
  rateLimited: number;
  /** Peak resident memory of the provider process (dynamic provider or native plugin), MiB (0 when none ran). */
  providerPeakMiB: number;
  /** CPU seconds of the provider processes (dynamic provider or plugin). */
  providerCpu: number;
  /** CPU seconds of the engine, language host and program. */
  engineCpu: number;
  /** CPU seconds of the bench process: the emulator and the Automation API. */
  benchCpu: number;
  /** After `up (create)` only: the state's bytes per agent or number resource (`stack export`, JSON). */
  stateBytesPerResource?: number;
}

/** Which classes declare the graph (programs/graph.ts); native-floor is native served by the no-op plugin. */
export type BenchMode = "ours" | "floor" | "native" | "native-floor";

/** The processes whose memory a phase samples: the dynamic provider, or a plugin by its file name. */
const PROVIDER_PROCESS = /cmd\/dynamic-provider|pulumi-resource-voiceagent/;

/** What one phase's processes used, from /proc. */
interface Usage {
  providerPeakMiB: number;
  /** CPU seconds (user + system) of the provider processes. */
  providerCpu: number;
  /** CPU seconds of the stack's other processes: the CLI (engine), the language host, the program. */
  engineCpu: number;
}

/**
 * Samples every process of this stack while a phase runs: those whose environment holds its
 * backend (the CLI gets it from the Automation API and passes it on to the language host, the
 * program and the plugins), not other programs' on the same machine. Peak RSS (VmHWM) of the
 * provider processes, and each process's CPU at its last sample (a process that exits loses at
 * most the last 100 ms).
 */
function startSampler(backend: string): () => Usage {
  const mark = `PULUMI_BACKEND_URL=file://${backend}\0`;
  let peakKiB = 0;
  const cpu = new Map<string, { provider: boolean; ticks: number }>();
  // Another program's pid stays another's (its environment does not change); ours are looked at
  // again each time, since a child's command line changes when it execs.
  const foreign = new Set<string>();
  const kindOf = (pid: string) => {
    if (!readFileSync(`/proc/${pid}/environ`, "utf8").includes(mark)) return "foreign";
    return PROVIDER_PROCESS.test(readFileSync(`/proc/${pid}/cmdline`, "utf8")) ? "provider" : "other";
  };
  const sample = () => {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        if (foreign.has(pid)) continue;
        const k = kindOf(pid);
        if (k === "foreign") {
          foreign.add(pid);
          continue;
        }
        const provider = k === "provider";
        const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
        cpu.set(pid, { provider, ticks: Number(fields[11]) + Number(fields[12]) });
        if (!provider) continue;
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) peakKiB = Math.max(peakKiB, Number(hwm[1]));
      } catch {
        // The process ended between listing and reading, or is not ours to read.
      }
    }
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    const sum = (provider: boolean) =>
      [...cpu.values()].filter((c) => c.provider === provider).reduce((a, c) => a + c.ticks, 0) / 100;
    return { providerPeakMiB: Math.round(peakKiB / 1024), providerCpu: sum(true), engineCpu: sum(false) };
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
      projectSettings: {
        name: "voiceagent-bench",
        runtime: { name: "nodejs", options: { typescript: false } },
        main: path.relative(workDir, path.join(ROOT, "dist/bench/programs/graph.js")),
      },
      envVars: {
        PULUMI_BACKEND_URL: `file://${backend}`,
        PULUMI_CONFIG_PASSPHRASE: "bench",
        ...(opts.skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
      },
    },
  );
  if (opts.pluginDir)
    appendFileSync(
      path.join(workDir, "Pulumi.yaml"),
      `plugins:\n  providers:\n    - name: voiceagent\n      path: ${opts.pluginDir}\n`,
    );
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
    const stop = startSampler(backend);
    const started = performance.now();
    const ownCpu = process.cpuUsage();
    await run();
    const seconds = (performance.now() - started) / 1000;
    const reads = Object.entries(stats.byRoute)
      .filter(([r]) => r.startsWith("GET "))
      .reduce((s, [, c]) => s + c, 0);
    const own = process.cpuUsage(ownCpu);
    results.push({
      phase: name,
      seconds,
      requests: stats.total,
      reads,
      rateLimited: Object.values(stats.rateLimited).reduce((a, b) => a + b, 0),
      ...stop(),
      benchCpu: (own.user + own.system) / 1e6,
    });
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
