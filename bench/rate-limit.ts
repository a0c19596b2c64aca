// The rate-limited scenario (issue 32): how much of a service's per-token limit the client and a
// Pulumi run actually use. The limit's own floor is the requests a run needs divided by the rate.
import path from "node:path";
import { createClient } from "pulumi-voiceagent/client";
import { startEmulator } from "voiceagent-emulator";
import { startBenchEmulator } from "./bench-emulator.js";
import { bundleNativeFloor } from "./native-floor/bundle.js";
import { PLUGIN_BIN } from "./plugin-start.js";
import { runPhases, type BenchMode, type PhaseResult } from "./pulumi-phases.js";

/** One in-process run of creates under the limit. */
export interface PacingRun {
  client: "paced" | "unpaced";
  creates: number;
  seconds: number;
  /** Creates committed a second (what the limit let through and the client used). */
  perSecond: number;
  /** 429s the emulator answered. */
  rateLimited: number;
  /** The limit's floor: (creates - burst) / rate, in seconds. */
  floorSeconds: number;
}

/** `creates` agent creates at once from one client (concurrency 8), paced and unpaced, each against a fresh limited emulator. */
export async function benchPacing(perSecond: number, creates: number): Promise<PacingRun[]> {
  const runs: PacingRun[] = [];
  for (const client of ["unpaced", "paced"] as const) {
    const token = `pacing-${client}`;
    const emu = await startEmulator({ tokens: [token], seed: true, rateLimit: { perSecond, burst: perSecond } });
    try {
      const voice = emu.seeds.get(token)?.voices[0];
      if (!voice) throw new Error("the seeded emulator has no voice");
      const c = createClient({ baseUrl: emu.url, token, pace: client === "paced", retry: { budgetMs: 600_000 } });
      const started = performance.now();
      await Promise.all(Array.from({ length: creates }, (_, i) => c.agents.create({ prompt: `p${i}`, voice })));
      const seconds = (performance.now() - started) / 1000;
      runs.push({
        client,
        creates,
        seconds,
        perSecond: creates / seconds,
        rateLimited: Object.values(emu.stats.rateLimited).reduce((a, b) => a + b, 0),
        floorSeconds: (creates - perSecond) / perSecond,
      });
    } finally {
      await emu.close();
    }
  }
  return runs;
}

/** One Pulumi run (every phase) of N agents + N bindings under the limit. */
export interface LimitedStackRun {
  mode: BenchMode;
  n: number;
  perSecond: number;
  phases: PhaseResult[];
}

/**
 * Runs the benchmark graph's phases for `modes` under a limit of `perSecond` (burst the same). The
 * floors (native-floor, floor) send no request: under the limit they give each phase's engine time,
 * which a refresh in pages should stay close to.
 */
export async function benchLimitedStack(
  perSecond: number,
  n: number,
  modes: BenchMode[],
  skipCheckpoints = false,
): Promise<LimitedStackRun[]> {
  const runs: LimitedStackRun[] = [];
  for (const mode of modes) {
    // A fresh emulator per mode: one's pace (and bucket) must not be the next one's start.
    const { emulator, token, voice } = await startBenchEmulator(n, { perSecond, burst: perSecond });
    try {
      const pluginDir =
        mode === "native" ? path.dirname(PLUGIN_BIN) : mode === "native-floor" ? await bundleNativeFloor() : undefined;
      const phases = await runPhases({
        mode,
        n,
        emulator,
        token,
        voice,
        skipCheckpoints,
        ...(pluginDir ? { pluginDir } : {}),
      });
      runs.push({ mode, n, perSecond, phases });
    } finally {
      await emulator.close();
    }
  }
  return runs;
}
