// Two provider processes of one deployment sending with one token under the limit (issue 32):
// each pacing alone (VOICEAGENT_PACE_ALONE=1), then pacing together through the deployment's
// folder (coordination/shared-pace.ts). What sharing changes: the 429s and the time to the floor.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startEmulator } from "voiceagent-emulator";

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../provider/dist");

/** One run of two processes started together, each creating half the agents. */
export interface SharedPaceRun {
  pacing: "alone" | "together";
  creates: number;
  seconds: number;
  /** 429s the emulator answered. */
  rateLimited: number;
  /** The limit's floor: (creates - burst) / rate, in seconds. */
  floorSeconds: number;
}

/** `creates` agent creates from two provider processes of one deployment (half each, concurrency 8), paced alone and together. */
export async function benchSharedPace(perSecond: number, creates: number): Promise<SharedPaceRun[]> {
  const runs: SharedPaceRun[] = [];
  for (const pacing of ["alone", "together"] as const) {
    const token = `shared-pace-${pacing}`;
    const emu = await startEmulator({ tokens: [token], seed: true, rateLimit: { perSecond, burst: perSecond } });
    const root = mkdtempSync(path.join(tmpdir(), "va-bench-pace-"));
    const children: ReturnType<typeof spawn>[] = [];
    try {
      const voice = emu.seeds.get(token)?.voices[0];
      if (!voice) throw new Error("the seeded emulator has no voice");
      const address = `127.0.0.1:${40000 + Math.floor(Math.random() * 20000)}`;
      const half = Math.ceil(creates / 2);
      const procs = [0, 1].map((p) => {
        const script = `
          const { Host } = require(${JSON.stringify(`${DIST}/host.js`)});
          const { createClient } = require(${JSON.stringify(`${DIST}/client/index.js`)});
          const host = new Host({ notes: () => {} });
          host.join(${JSON.stringify(address)}, { root: ${JSON.stringify(root)}, enginePid: ${process.pid} });
          const client = host.run(() =>
            createClient({ baseUrl: ${JSON.stringify(emu.url)}, token: ${JSON.stringify(token)}, retry: { budgetMs: 600000 } }),
          );
          process.stdin.resume();
          process.stdin.on("end", async () => {
            await host.run(() => Promise.all(Array.from({ length: ${half} }, (_, i) =>
              client.agents.create({ prompt: "p${p}-" + i, voice: ${JSON.stringify(voice)} }))));
            console.log("done");
            host.leave();
          });
          console.log("ready");`;
        const env = { ...process.env, VOICEAGENT_PACE_ALONE: pacing === "alone" ? "1" : "0" };
        const proc = spawn(process.execPath, ["-e", script], { stdio: ["pipe", "pipe", "inherit"], env });
        children.push(proc);
        const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
        return { proc, next: async () => String((await lines.next()).value) };
      });
      for (const p of procs) if ((await p.next()) !== "ready") throw new Error("a provider process did not start");
      const started = performance.now();
      for (const p of procs) p.proc.stdin.end();
      for (const p of procs) if ((await p.next()) !== "done") throw new Error("a provider process failed");
      runs.push({
        pacing,
        creates: 2 * half,
        seconds: (performance.now() - started) / 1000,
        rateLimited: Object.values(emu.stats.rateLimited).reduce((a, b) => a + b, 0),
        floorSeconds: (2 * half - perSecond) / perSecond,
      });
    } finally {
      for (const c of children) c.kill();
      await emu.close();
      rmSync(root, { recursive: true, force: true });
    }
  }
  return runs;
}
