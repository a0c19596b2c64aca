import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import path from "node:path";
import { ROOT } from "./pulumi-stack.js";

/** The emulator CLI running as its own process. */
export interface EmulatorProcess {
  url: string;
  lines: string[];
  /** The n-th line (0-based) of stdout, once printed; rejects if the process exits first. */
  line(n: number): Promise<string>;
  child: ChildProcess;
  /** Milliseconds from spawn to the URL line. */
  startupMs: number;
  exited: Promise<number | null>;
}

/** Spawns `node dist/emulator/cli.js ...args` and waits for the base URL on stdout. */
export async function spawnEmulator(args: string[]): Promise<EmulatorProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, "emulator/dist/cli.js"), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const lines: string[] = [];
  const rl = createInterface({ input: child.stdout! });
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  const line = (n: number) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (lines.length <= n) return;
        rl.off("line", check);
        resolve(lines[n]!);
      };
      rl.on("line", check);
      check();
      void exited.then((code) =>
        reject(new Error(`emulator exited (${code}) before printing line ${n + 1}: ${stderr}`)),
      );
    });
  rl.on("line", (l) => lines.push(l));
  const url = await line(0);
  return { url, lines, line, child, startupMs: performance.now() - started, exited };
}
