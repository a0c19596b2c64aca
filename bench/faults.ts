// The fleet (N agents, N bound lines, a shared voice, action and webhook) deployed by one `up`
// against a clean emulator and against the fault mix of the flaky-service tests, side by side:
// wall time, requests per declared object, duplicates (committed creates beyond one per object).
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LocalWorkspace } from "@pulumi/pulumi/automation/index.js";
import { startEmulator, type FaultRuleInput } from "voiceagent-emulator";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The fault mix of the fleet figures in bench/README.md: before-work 503s, throttling, 5% of replies
 * lost after the work. The tests use 10% (test/helpers/fault-mix.ts); this one stays at 5% so the
 * figures remain comparable with earlier releases'.
 */
export const FAULT_MIX: FaultRuleInput[] = [
  { route: "*", method: "POST", status: 503, rate: 0.2 },
  { route: "*", status: 429, retryAfterSeconds: 1, rate: 0.1 },
  { route: "*", method: "POST", phase: "after", reset: true, rate: 0.05 },
];

/** One converging deployment's figures. */
export interface FaultRun {
  mode: "clean" | "faults";
  n: number;
  seconds: number;
  /** `pulumi up` runs until the stack converged (1 is the target). */
  ups: number;
  requests: number;
  requestsPerObject: number;
  duplicates: number;
}

/** Deploys the fleet once in `mode` on a fresh emulator and stack. */
export async function runFleet(mode: FaultRun["mode"], n: number, seed = 20261122): Promise<FaultRun> {
  const token = `bench-${randomUUID()}`;
  const emu = await startEmulator({ tokens: [token], seed: true, faultSeed: seed });
  const numbers = emu.addNumbers(token, { count: n, prefix: "+1555700" }).numbers;
  const id = `fleet-${mode}-${n}-${randomUUID().slice(0, 6)}`;
  const workDir = path.join(ROOT, ".pulumi-state", "bench", id);
  const backend = path.join(ROOT, ".pulumi-state", "bench-backends", id);
  mkdirSync(workDir, { recursive: true });
  mkdirSync(backend, { recursive: true });
  try {
    const stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "bench", workDir },
      {
        projectSettings: {
          name: "fleet",
          runtime: { name: "nodejs", options: { typescript: false } },
          main: path.relative(workDir, path.join(ROOT, "dist/bench/programs/fleet.js")),
        },
        envVars: { PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_CONFIG_PASSPHRASE: "bench" },
      },
    );
    await stack.setAllConfig({
      "voiceagent:baseUrl": { value: emu.url },
      "voiceagent:token": { value: token, secret: true },
      "fleet:agents": { value: String(n) },
      "fleet:numbers": { value: JSON.stringify(numbers) },
    });
    if (mode === "faults") for (const rule of FAULT_MIX) emu.faults.add(rule);
    emu.resetStats();
    const started = performance.now();
    let ups = 0;
    for (;;) {
      ups += 1;
      try {
        await stack.up();
        break;
      } catch (err) {
        if (ups >= 3) throw err;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const objects = 2 * n + 3;
    const creates = ["agents", "voices", "actions", "webhooks"].reduce(
      (s, k) => s + (emu.stats.writes[`POST /v1/${k}/create`] ?? 0),
      0,
    );
    return {
      mode,
      n,
      seconds,
      ups,
      requests: emu.stats.total,
      requestsPerObject: emu.stats.total / objects,
      duplicates: creates - (n + 3),
    };
  } finally {
    await emu.close();
    rmSync(workDir, { recursive: true, force: true });
    rmSync(backend, { recursive: true, force: true });
  }
}
