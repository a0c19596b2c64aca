// A test process stopped by a signal (vitest interrupted, a worker terminated) takes with it what it
// started, also a process in a process group of its own, as the Pulumi engine starts its plugins.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ORPHANS = path.join(path.dirname(fileURLToPath(import.meta.url)), "orphans.ts");

/** "gone", "zombie" (dead, not yet reaped) or "running": what /proc says of `pid`. */
function stateOf(pid: number): "gone" | "zombie" | "running" {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return "gone";
  }
  return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z") ? "zombie" : "running";
}

/** Waits (up to 20 s) for `pid` to be dead: a SIGKILL is delivered asynchronously. */
async function deadOrRunning(pid: number): Promise<"dead" | "running"> {
  for (const until = Date.now() + 20_000; Date.now() < until; ) {
    if (stateOf(pid) !== "running") return "dead";
    await new Promise((r) => setTimeout(r, 50));
  }
  return "running";
}

describe.runIf(process.platform === "linux")("processes a test process started die with it", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`on ${signal}, also one in a process group of its own`, async () => {
      // The test process: marks itself, then starts `sleep` detached (its own process group, like a
      // plugin of the engine) and says its pid.
      const script = `
        import { spawn } from "node:child_process";
        import { reapOnExit } from ${JSON.stringify(ORPHANS)};
        reapOnExit();
        const child = spawn("sleep", ["300"], { detached: true, stdio: "ignore" });
        child.unref();
        console.log(child.pid);
        setInterval(() => {}, 1000);
      `;
      const parent = spawn(process.execPath, ["--no-warnings", "--input-type=module", "-e", script], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const orphan = await new Promise<number>((resolve, reject) => {
        parent.stdout.once("data", (c: Buffer) => resolve(Number(c.toString().trim())));
        parent.once("exit", (code) => reject(new Error(`the test process exited ${code} before starting its child`)));
      });
      try {
        expect(stateOf(orphan)).toBe("running");
        const exited = new Promise((resolve) => parent.once("exit", (_code, sig) => resolve(sig)));
        parent.kill(signal);
        // The signal still ends the test process as it would have.
        expect(await exited).toBe(signal);
        expect(await deadOrRunning(orphan)).toBe("dead");
      } finally {
        try {
          process.kill(orphan, "SIGKILL");
        } catch {
          // Gone, as it should be.
        }
      }
    }, 60_000);
  }
});
