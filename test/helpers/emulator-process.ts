import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import path from "node:path";
import { ROOT } from "./pulumi-stack.js";

/** The emulator CLI running as its own process. */
export interface EmulatorProcess {
  url: string;
  lines: string[];
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
  const url = await new Promise<string>((resolve, reject) => {
    rl.on("line", (line) => {
      lines.push(line);
      if (lines.length === 1) resolve(line);
    });
    void exited.then((code) => reject(new Error(`emulator exited (${code}) before printing its URL: ${stderr}`)));
  });
  return { url, lines, child, startupMs: performance.now() - started, exited };
}
