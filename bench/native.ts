// The native path side by side with the dynamic one, over the same graph (N agents + N bindings),
// in one run: ours native (pulumi-voiceagent/native + the bundled plugin), the native floor (the
// same program served by the no-op plugin of native-floor/), the dynamic floor (the no-op dynamic
// provider) and ours dynamic. The four run interleaved, round after round (A B C D, A B C D), on
// one emulator, so machine load falls on all of them alike; each figure is the median over rounds.
import os from "node:os";
import path from "node:path";
import { rmSync } from "node:fs";
import { startBenchEmulator } from "./bench-emulator.js";
import { bundleNativeFloor } from "./native-floor/bundle.js";
import { PLUGIN_BIN } from "./plugin-start.js";
import { runPhases, type BenchMode, type PhaseResult } from "./pulumi-phases.js";

/** The order of each round, and the column order of the table. */
export const MODES: readonly BenchMode[] = ["native", "native-floor", "floor", "ours"];

/** One phase's medians over the rounds, per mode. */
export interface NativePhase {
  phase: string;
  seconds: Record<BenchMode, number>;
  requests: Record<BenchMode, number>;
  providerPeakMiB: Record<BenchMode, number>;
  /** CPU seconds: the provider, the engine with language host and program, the bench process (emulator). */
  cpu: Record<BenchMode, { provider: number; engine: number; bench: number }>;
}

/** One size's comparison. */
export interface NativeComparison {
  n: number;
  skipCheckpoints: boolean;
  rounds: number;
  phases: NativePhase[];
  stateBytesPerResource: Record<BenchMode, number>;
  /** 1-minute load average sampled every 5 s during the run: mean and max. */
  loadAverage: { mean: number; max: number };
  /** Every round's raw figures, per mode. */
  raw: Record<BenchMode, PhaseResult[][]>;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : ((s[mid - 1] ?? Number.NaN) + (s[mid] ?? Number.NaN)) / 2;
};

const perMode = <T>(f: (mode: BenchMode) => T): Record<BenchMode, T> => ({
  native: f("native"),
  "native-floor": f("native-floor"),
  floor: f("floor"),
  ours: f("ours"),
});

/** Runs the four modes `rounds` times interleaved at each size; `log` gets a line per finished mode. */
export async function compareNative(opts: {
  sizes: number[];
  rounds: number;
  skipCheckpoints: boolean;
  log: (line: string) => void;
}): Promise<NativeComparison[]> {
  const floorDir = await bundleNativeFloor();
  const { emulator, token, voice } = await startBenchEmulator(Math.max(...opts.sizes));
  const pluginDirs: Partial<Record<BenchMode, string>> = { native: path.dirname(PLUGIN_BIN), "native-floor": floorDir };
  const out: NativeComparison[] = [];
  try {
    for (const n of opts.sizes) {
      const loads: number[] = [];
      const sampler = setInterval(() => loads.push(os.loadavg()[0] ?? 0), 5000);
      loads.push(os.loadavg()[0] ?? 0);
      const raw = perMode((): PhaseResult[][] => []);
      try {
        for (let round = 1; round <= opts.rounds; round++) {
          for (const mode of MODES) {
            const phases = await runPhases({
              mode,
              n,
              emulator,
              token,
              voice,
              skipCheckpoints: opts.skipCheckpoints,
              pluginDir: pluginDirs[mode],
            });
            raw[mode].push(phases);
            opts.log(
              `N=${n} round ${round} ${mode}: ${phases.map((p) => `${p.phase} ${p.seconds.toFixed(2)}s`).join(", ")}; load ` +
                `${os.loadavg()[0]?.toFixed(1)}`,
            );
          }
        }
      } finally {
        clearInterval(sampler);
      }
      const names = raw.native[0]?.map((p) => p.phase) ?? [];
      const at = (mode: BenchMode, i: number, f: (p: PhaseResult) => number) => median(raw[mode].map((r) => f(r[i]!)));
      out.push({
        n,
        skipCheckpoints: opts.skipCheckpoints,
        rounds: opts.rounds,
        phases: names.map((phase, i) => ({
          phase,
          seconds: perMode((m) => at(m, i, (p) => p.seconds)),
          requests: perMode((m) => at(m, i, (p) => p.requests)),
          providerPeakMiB: perMode((m) => at(m, i, (p) => p.providerPeakMiB)),
          cpu: perMode((m) => ({
            provider: at(m, i, (p) => p.providerCpu),
            engine: at(m, i, (p) => p.engineCpu),
            bench: at(m, i, (p) => p.benchCpu),
          })),
        })),
        stateBytesPerResource: perMode((m) => at(m, 0, (p) => p.stateBytesPerResource ?? 0)),
        loadAverage: { mean: loads.reduce((a, b) => a + b, 0) / loads.length, max: Math.max(...loads) },
        raw,
      });
    }
  } finally {
    await emulator.close();
    rmSync(floorDir, { recursive: true, force: true });
  }
  return out;
}

/** The comparison as markdown tables, with the issue's targets checked. */
export function nativeTables(c: NativeComparison): string[] {
  const f = (x: number, d = 2) => x.toFixed(d);
  const lines = [
    `### Native and dynamic side by side, N = ${c.n} (${c.n} agents + ${c.n} ` +
      `bindings${c.skipCheckpoints ? ", PULUMI_SKIP_CHECKPOINTS=true for all" : ", default checkpoints"}; median of ${c.rounds} interleaved rounds)`,
    "",
    "| phase | ours native s | native floor s | dynamic floor s | ours dynamic s | native / native floor | native / " +
      "dynamic floor | dynamic / dynamic floor | requests (native / dynamic) | provider peak MiB (native / native floor / dyn floor / dynamic) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const p of c.phases) {
    const s = p.seconds;
    const mib = MODES.map((m) => f(p.providerPeakMiB[m], 0)).join(" / ");
    lines.push(
      `| ${p.phase} | ${f(s.native)} | ${f(s["native-floor"])} | ${f(s.floor)} | ${f(s.ours)} | ` +
        `${f(s.native / s["native-floor"])} | ${f(s.native / s.floor)} | ${f(s.ours / s.floor)} | ${p.requests.native} ` +
        `/ ${p.requests.ours} | ${mib} |`,
    );
  }
  lines.push(
    "",
    "CPU seconds per phase, provider / engine + language host + program / bench process (the emulator):",
    "",
  );
  lines.push("| phase | ours native | native floor | dynamic floor | ours dynamic |", "|---|---:|---:|---:|---:|");
  for (const p of c.phases)
    lines.push(
      `| ${p.phase} | ${MODES.map((m) => [p.cpu[m].provider, p.cpu[m].engine, p.cpu[m].bench].map((x) => f(x, 1)).join(" / ")).join(" | ")} |`,
    );
  const b = c.stateBytesPerResource;
  lines.push(
    "",
    `State bytes per resource (stack export, JSON): ours native ${b.native}, native floor ${b["native-floor"]}, ` +
      `dynamic floor ${b.floor}, ours dynamic ${b.ours}.`,
  );
  lines.push(
    `Load average (1 min) during the run: mean ${f(c.loadAverage.mean, 1)}, max ${f(c.loadAverage.max, 1)} on ${os.cpus().length} cores.`,
  );
  const up = c.phases[0];
  const worst = c.phases.reduce((w, p) => Math.max(w, p.seconds.native / p.seconds["native-floor"]), 0);
  if (up)
    lines.push(
      `Targets: native up / dynamic floor up = ${f(up.seconds.native / up.seconds.floor)} (<= 0.6 at N = 200); worst ` +
        `native / native floor = ${f(worst)} (<= 1.25 on every phase).`,
    );
  return lines;
}
