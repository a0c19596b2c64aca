/** What a command reads and writes besides the service: injectable, so tests run commands in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** The real process's streams, environment and working directory. */
export function processIo(): CliIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Seconds with one decimal, for summaries. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
