// What commands print and where: the streams (injectable for tests), durations and tables.

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

/**
 * A plain-text table: columns padded to their widest cell, cells on one line (line breaks in a
 * value become spaces, so one object is always one row), long cells cut with an ellipsis.
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[], maxCell = 60): string {
  const clean = (s: string) => {
    const one = s.replace(/[\r\n\u2028\u2029\u0085\t]+/g, " ");
    return one.length > maxCell ? `${one.slice(0, maxCell - 1)}…` : one;
  };
  const all = [header, ...rows].map((r) => r.map(clean));
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return `${all.map(line).join("\n")}\n`;
}
