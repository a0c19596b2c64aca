import { execFile } from "node:child_process";
import { z } from "zod";
import { redact } from "../client/index.js";
import { CliError, errnoCode } from "./errors.js";

/** What a command that drives the Pulumi CLI says when there is none: what is missing and how to get it. */
export const NO_PULUMI_CLI =
  "the pulumi command is not on PATH: install the Pulumi CLI (https://www.pulumi.com/docs/install/), then try again";

/** Where the stacks' project lives, and the environment the `pulumi` command runs with. */
export interface PulumiContext {
  /** The project folder (the one with Pulumi.yaml). */
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Runs the `pulumi` command on PATH and returns its stdout. A failure becomes one line naming the
 * command and pulumi's own last error line (stdout can hold a secret, so it is never echoed).
 * `input` goes to its stdin (a secret config value: never an argument, which others can see).
 */
export function runPulumi(ctx: PulumiContext, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "pulumi",
      [...args, "--non-interactive"],
      { cwd: ctx.cwd, env: ctx.env, maxBuffer: 512 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const missing = errnoCode(error) === "ENOENT";
        const last = stderr
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l && !l.startsWith("warning:"))
          .pop();
        const why = missing ? NO_PULUMI_CLI : redact(last ?? `exit code ${String(error.code)}`);
        reject(new CliError(`\`pulumi ${args.join(" ")}\` failed in ${ctx.cwd}: ${why}`));
      },
    );
    child.stdin?.end(input ?? "");
  });
}

/** The plain `pulumi stack export` of a stack: secrets stay encrypted, as the issue asks. */
export function exportStack(ctx: PulumiContext, stack: string): Promise<string> {
  return runPulumi(ctx, ["stack", "export", "--stack", stack]);
}

const ConfigSchema = z.record(z.string(), z.looseObject({ value: z.unknown().optional() }));

/**
 * A stack's config values (secrets decrypted), by key. Used only for `voiceagent:baseUrl` and
 * `voiceagent:token`, neither of which is ever printed.
 */
export async function stackConfig(ctx: PulumiContext, stack: string): Promise<Map<string, string>> {
  const out = await runPulumi(ctx, ["config", "--stack", stack, "--json", "--show-secrets"]);
  let json: unknown;
  try {
    json = JSON.parse(out);
  } catch {
    json = undefined;
  }
  const parsed = ConfigSchema.safeParse(json);
  if (!parsed.success) throw new CliError(`\`pulumi config --stack ${stack} --json\` did not print the config as JSON`);
  const values = new Map<string, string>();
  for (const [key, entry] of Object.entries(parsed.data))
    if (typeof entry.value === "string") values.set(key, entry.value);
  return values;
}

const StackListSchema = z.array(z.looseObject({ name: z.string() }));

/** The names of the stacks `pulumi stack ls` shows for the project in `ctx.cwd` (its backend). */
export async function listStacks(ctx: PulumiContext): Promise<string[]> {
  const out = await runPulumi(ctx, ["stack", "ls", "--json"]);
  let json: unknown;
  try {
    json = JSON.parse(out);
  } catch {
    json = undefined;
  }
  const parsed = StackListSchema.safeParse(json);
  if (!parsed.success) throw new CliError("`pulumi stack ls --json` did not print a list of stacks");
  return parsed.data.map((s) => s.name);
}
