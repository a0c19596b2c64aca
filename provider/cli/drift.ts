import { createRequire } from "node:module";
import path from "node:path";
import type * as automation from "@pulumi/pulumi/automation/index.js";
import { redact, registerSecret } from "../client/index.js";
import { driftFromEvents, humanDrift } from "./drift-report.js";
import { CliError, errnoCode, EXIT, type ExitCode } from "./errors.js";
import type { CliIo } from "./output.js";
import { NO_PULUMI_CLI } from "./pulumi-cli.js";

/** The options of `voiceagent drift`. */
export interface DriftOptions {
  stack: string;
  json: boolean;
  /** The project folder (default: the working directory). */
  cwd?: string | undefined;
}

/**
 * Loads the Automation API, an optional peer of this package: only `drift` needs it. The project's
 * own first (run by npx or a global install, this package has none beside it), then the one beside
 * this package; a missing one gets one line saying what to install where.
 */
async function loadAutomation(workDir: string): Promise<typeof automation> {
  const entry = "@pulumi/pulumi/automation/index.js";
  for (const from of [path.join(workDir, "noop.js"), __filename]) {
    let resolved: string;
    try {
      resolved = createRequire(from).resolve(entry);
    } catch (err) {
      if (errnoCode(err) === "MODULE_NOT_FOUND") continue;
      throw err;
    }
    const loaded: typeof automation = await import(resolved);
    return loaded;
  }
  throw new CliError(
    `voiceagent drift needs @pulumi/pulumi (its Automation API), and none resolves from ${workDir}: run it in the ` +
      "Pulumi project (or pass --cwd DIR), after `npm install` there (a Pulumi TypeScript project depends on " +
      "@pulumi/pulumi), or run `npm install @pulumi/pulumi` there; it also needs the pulumi CLI on PATH",
  );
}

/**
 * What went wrong in a failed Pulumi command, on one line: its `error:` lines, else the first
 * line of its stderr (an Automation API error's message holds the whole stdout and stderr).
 */
export function pulumiFailure(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (/spawn pulumi ENOENT/.test(text)) return NO_PULUMI_CLI;
  const stderr = /\bstderr: ([\s\S]*?)(?:\n err\?: |$)/.exec(text)?.[1] ?? text;
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const errors = lines.filter((l) => /^error:/i.test(l) && !/^error: preview failed$/i.test(l));
  const picked = errors.length ? errors.slice(0, 3).join(" ") : (lines[0] ?? text);
  return redact(picked.replace(/^error:\s*/i, ""));
}

/**
 * `voiceagent drift`: runs `pulumi preview --refresh` on the stack through the Automation API
 * and prints, per resource, the properties that differ between what the state recorded of the
 * live objects and what the refresh reads (state → live, secrets masked; drift-report.ts) and what
 * `up` would do. Exit 0 clean, 3 drift, 1 error.
 */
export async function drift(opts: DriftOptions, io: CliIo): Promise<ExitCode> {
  const workDir = path.resolve(io.cwd, opts.cwd ?? ".");
  const { LocalWorkspace } = await loadAutomation(workDir);
  if (io.env.VOICEAGENT_TOKEN) registerSecret(io.env.VOICEAGENT_TOKEN);
  const envVars = Object.fromEntries(
    Object.entries(io.env).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
  let stack: automation.Stack;
  try {
    stack = await LocalWorkspace.selectStack({ stackName: opts.stack, workDir }, { envVars });
  } catch (err) {
    throw new CliError(`cannot select stack ${opts.stack} in ${workDir}: ${pulumiFailure(err)}`);
  }
  const events: automation.EngineEvent[] = [];
  try {
    await stack.preview({ refresh: true, color: "never", onEvent: (e) => events.push(e) });
  } catch (err) {
    throw new CliError(
      `pulumi preview --refresh of stack ${opts.stack} failed: ${pulumiFailure(err)}; nothing was changed`,
    );
  }
  const report = driftFromEvents(events);
  io.stdout(opts.json ? `${JSON.stringify(report, null, 2)}\n` : humanDrift(report));
  return report.clean ? EXIT.clean : EXIT.found;
}
