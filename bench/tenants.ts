// Many tenants' stacks of one account at once under its rate limit (issue 45): N stacks of M agents
// each, all deployed together through the Automation API on one machine, paced alone per
// deployment (VOICEAGENT_PACE_ALONE=1) and then sharing the machine's pace, each on a fresh limited
// emulator. The limit's floor is the requests the run needed (those answered, not the 429s) at the
// rate; the target is within 1.15x of it at 20 x 20.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LocalWorkspace } from "@pulumi/pulumi/automation/index.js";
import { startEmulator } from "voiceagent-emulator";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** One run of N tenants at once. */
export interface TenantsRun {
  pacing: "alone" | "shared";
  tenants: number;
  /** Stacks deployed at once (the example's `--parallel`): each starts as another ends. */
  parallel: number;
  resources: number;
  seconds: number;
  /** Requests the emulator answered other than with 429. */
  requests: number;
  rateLimited: number;
  /** Stacks whose `up` failed, and the first failure's diagnostic line (a starved read gives up after its retries). */
  failed: number;
  firstFailure: string | undefined;
  /** requests / rate. */
  floorSeconds: number;
  /**
   * The service's window: from the first request the emulator received to the last (sampled every
   * `SAMPLE_MS`). The time outside it is the engines' (their start, the program, the Automation
   * API's read-back after each up), which the limit does not set; the window against the floor is
   * the pace's own share.
   */
  window: { firstSeconds: number; lastSeconds: number; seconds: number };
  /** 429s in the window's first `EARLY_MS` (before the first 429 has been told to every process) and after. */
  rateLimitedEarly: number;
  /** The load average (1, 5, 15 min) before and after. */
  load: [string, string];
  /** The machine's pace second by second (shared pacing only: the alone runs keep no shared state). */
  pace: PaceSecond[];
}

/**
 * One second of the run as the service and the shared pace saw it (sampled every `SAMPLE_MS`): why
 * the window is longer than the floor. A second answered below the rate with turns queued is the
 * senders' (turns given and not used in time); one with no turn queued is the demand's (the engines
 * had nothing to send); a rate below the limit is the pace's.
 */
export interface PaceSecond {
  /** Seconds since the ups started. */
  at: number;
  /** Requests the service answered (not 429) and 429s in this second. */
  answered: number;
  rateLimited: number;
  /** The shared pace's rate and ceiling at the second's end (undefined: no limit known). */
  rate: number | undefined;
  ceiling: number | undefined;
  /** The most turns waiting at any sample of the second ((nextAt - now) x rate). */
  queued: number;
}

/** How often the emulator's counters are sampled for the window. */
const SAMPLE_MS = 100;
/** The window's start the early 429s are counted in. */
const EARLY_MS = 10_000;

const limitedOf = (stats: { rateLimited: Record<string, number> }) =>
  Object.values(stats.rateLimited).reduce((a, b) => a + b, 0);

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");

/**
 * N tenants x M agents, `parallel` of them `up` at once (all by default), then all `destroy`ed (the
 * destroy is not timed); paced alone, then shared.
 */
export async function benchTenants(
  perSecond: number,
  tenants: number,
  resources: number,
  pacings: readonly ("alone" | "shared")[] = ["alone", "shared"],
  parallel = tenants,
): Promise<TenantsRun[]> {
  const runs: TenantsRun[] = [];
  for (const pacing of pacings) {
    const token = `tenants-${pacing}-${randomUUID()}`;
    const emu = await startEmulator({ tokens: [token], seed: true, rateLimit: { perSecond, burst: perSecond } });
    const shared = mkdtempSync(path.join(os.tmpdir(), "va-bench-tenants-"));
    const id = randomUUID().slice(0, 6);
    const workDir = path.join(ROOT, ".pulumi-state", "bench", `tenants-${id}`);
    const backend = path.join(ROOT, ".pulumi-state", "bench-backends", `tenants-${id}`);
    mkdirSync(workDir, { recursive: true });
    mkdirSync(backend, { recursive: true });
    try {
      const voice = emu.seeds.get(token)?.voices[0];
      if (!voice) throw new Error("the seeded emulator has no voice");
      const envVars = {
        PULUMI_BACKEND_URL: `file://${backend}`,
        PULUMI_CONFIG_PASSPHRASE: "bench",
        VOICEAGENT_SHARED_DIR: shared,
        VOICEAGENT_PACE_ALONE: pacing === "alone" ? "1" : "0",
      };
      const stacks = [];
      for (let t = 0; t < tenants; t++) {
        const stack = await LocalWorkspace.createStack(
          { stackName: `tenant-${t}`, workDir },
          {
            projectSettings: {
              name: "tenant",
              runtime: { name: "nodejs", options: { typescript: false } },
              main: path.relative(workDir, path.join(ROOT, "dist/bench/programs/tenant.js")),
            },
            envVars,
          },
        );
        await stack.setAllConfig({
          "voiceagent:baseUrl": { value: emu.url },
          "voiceagent:token": { value: token, secret: true },
          "tenant:m": { value: String(resources) },
          "tenant:voice": { value: voice },
        });
        stacks.push(stack);
      }
      emu.resetStats();
      const before = load();
      const started = performance.now();
      // The service's window, from the emulator's counters (sampled: requests are seconds apart at the limit).
      let first: number | undefined;
      let last = started;
      let seen = 0;
      let early = 0;
      const pace: PaceSecond[] = [];
      const counted = { total: 0, limited: 0 };
      const sampler = setInterval(() => {
        const now = performance.now();
        if (pacing === "shared") samplePace(pace, shared, now - started, emu.stats, counted);
        if (emu.stats.total === seen) return;
        seen = emu.stats.total;
        first ??= now;
        last = now;
        if (now - first <= EARLY_MS) early = limitedOf(emu.stats);
      }, SAMPLE_MS);
      // Every stack runs to its end: a stack that fails (its reads starved of the limit past their
      // retries) is counted, not allowed to end the run before the others have finished.
      const ups = await inTurn(stacks, parallel, (s) => s.up());
      const failures = ups.flatMap((u) => (u.status === "rejected" ? [String(u.reason)] : []));
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const rateLimited = limitedOf(emu.stats);
      const firstSeconds = ((first ?? started) - started) / 1000;
      const lastSeconds = (last - started) / 1000;
      const requests = emu.stats.total - rateLimited;
      runs.push({
        pacing,
        tenants,
        parallel,
        resources,
        seconds,
        requests,
        rateLimited,
        failed: failures.length,
        firstFailure: firstError(failures[0]),
        floorSeconds: requests / perSecond,
        window: { firstSeconds, lastSeconds, seconds: lastSeconds - firstSeconds },
        rateLimitedEarly: early,
        load: [before, load()],
        pace,
      });
      await Promise.allSettled(stacks.map((s) => s.destroy()));
    } finally {
      await emu.close();
      rmSync(shared, { recursive: true, force: true });
      rmSync(workDir, { recursive: true, force: true });
      rmSync(backend, { recursive: true, force: true });
    }
  }
  return runs;
}

/** Runs `run` on every item, `parallel` at a time, each next one as soon as one ends (as examples/tenants does). */
async function inTurn<T, R>(
  items: T[],
  parallel: number,
  run: (item: T) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      try {
        results[i] = { status: "fulfilled", value: await run(items[i]!) };
      } catch (reason) {
        results[i] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, items.length)) }, worker));
  return results;
}

/**
 * Where the window's seconds went, from the trace: the seconds the pace's rate was below the
 * limit (and by how much on average), the seconds with no turn queued (the engines had nothing to
 * send), and the seconds answered below the rate with turns queued (turns given, not used in time).
 */
export function paceSummary(r: TenantsRun): string {
  const inWindow = r.pace.filter(
    (p) => p.at >= Math.floor(r.window.firstSeconds) && p.at < Math.ceil(r.window.lastSeconds),
  );
  const paced = inWindow.filter((p) => p.rate !== undefined);
  const meanRate = paced.reduce((a, p) => a + (p.rate ?? 0), 0) / Math.max(1, paced.length);
  const idle = paced.filter((p) => p.queued < 1).length;
  const unused = paced.filter((p) => p.queued >= 1 && p.answered + p.rateLimited < (p.rate ?? 0) - 0.5).length;
  const answered = inWindow.reduce((a, p) => a + p.answered, 0);
  return (
    `${inWindow.length} s in the window, ${answered} answered (${(answered / Math.max(1, inWindow.length)).toFixed(2)}/s); ` +
    `${inWindow.length - paced.length} s with no limit known; the pace's mean rate ${meanRate.toFixed(2)}/s; ` +
    `${idle} s with no turn queued; ${unused} s with turns queued but fewer sent than the rate`
  );
}

/** The machine folder's pace state for the run's one token (the shared folder holds one machine and one token), if written yet. */
function paceState(shared: string): { rate?: number; ceiling?: number; nextAt?: number } | undefined {
  for (const machine of readdirSync(shared)) {
    if (!machine.startsWith("machine-")) continue;
    const name = readdirSync(path.join(shared, machine)).find((n) => /^pace-[0-9a-f]+\.json$/.test(n));
    if (!name) continue;
    try {
      return JSON.parse(readFileSync(path.join(shared, machine, name), "utf8"));
    } catch {
      return undefined; // being replaced this instant
    }
  }
  return undefined;
}

/** Adds one sample to the second it falls in (`PaceSecond`). */
function samplePace(
  seconds: PaceSecond[],
  shared: string,
  sinceStart: number,
  stats: { total: number; rateLimited: Record<string, number> },
  /** The emulator's counts at the last sample: this sample adds what came since (updated here). */
  counted: { total: number; limited: number },
): void {
  const at = Math.floor(sinceStart / 1000);
  while (seconds.length <= at)
    seconds.push({ at: seconds.length, answered: 0, rateLimited: 0, rate: undefined, ceiling: undefined, queued: 0 });
  const second = seconds[at]!;
  const limited = limitedOf(stats);
  second.rateLimited += limited - counted.limited;
  second.answered += stats.total - limited - (counted.total - counted.limited);
  counted.total = stats.total;
  counted.limited = limited;
  const s = paceState(shared);
  second.rate = s?.rate;
  second.ceiling = s?.ceiling;
  if (s?.rate !== undefined && s.nextAt !== undefined)
    second.queued = Math.max(second.queued, Math.max(0, ((s.nextAt - Date.now()) * s.rate) / 1000));
}

/**
 * The first diagnostic of a failed `up`: its "error:" line and, when that line only announces a
 * list ("1 error occurred:"), the lines of the list.
 */
function firstError(failure: string | undefined): string | undefined {
  const lines = failure?.split("\n") ?? [];
  const at = lines.findIndex((line) => line.includes("error:"));
  if (at < 0) return undefined;
  const first = lines[at]!.trim();
  if (!/errors? occurred:$/.test(first)) return first;
  const list = lines.slice(at + 1).filter((line) => line.trim().startsWith("*"));
  return [first, ...list.slice(0, 3).map((line) => line.trim())].join(" ");
}
