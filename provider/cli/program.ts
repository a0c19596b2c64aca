import { Host } from "../host.js";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { z } from "zod";
import { PACKAGE_VERSION } from "../client/index.js";
import { audit } from "./audit-command.js";
import { drift } from "./drift.js";
import { cliError, EXIT, failureJson, type ExitCode } from "./errors.js";
import type { CliIo } from "./output.js";
import { ACCOUNT_COLLECTIONS, AccountCollectionSchema, parseCollections } from "./kinds.js";
import { pull } from "./pull.js";
import { recover } from "./recover-command.js";
import { snapshot } from "./snapshot.js";
import { testCall } from "./test-call.js";

const EXIT_CODES = `
Exit codes: 0 clean, 3 found something (drift, unmanaged or missing objects), 1 error.
With --json, an error is JSON too: {"error": {"code", "mayHaveActed", "message"}}.`;
const CREDENTIALS = `
The service: --base-url, else VOICEAGENT_BASE_URL. The token: VOICEAGENT_TOKEN (never a flag,
never printed). With --stack, a missing one is taken from the stack's voiceagent:baseUrl and
voiceagent:token config.`;

const collect = (value: string, previous: string[]) => [...previous, value];
const only = (value: string) => {
  try {
    return parseCollections(value);
  } catch (err) {
    throw new InvalidArgumentError(err instanceof Error ? err.message : String(err));
  }
};

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError("must be a port number, 0 to 65535");
  return n;
};
const positive = (value: string) => {
  const n = Number(value);
  if (!(n > 0)) throw new InvalidArgumentError("must be a number of seconds above 0");
  return n;
};

const Only = z.array(AccountCollectionSchema).default([...ACCOUNT_COLLECTIONS]);
const PullOpts = z.object({
  out: z.string(),
  only: Only,
  json: z.boolean(),
  force: z.boolean(),
  baseUrl: z.string().optional(),
  name: z.string().optional(),
  importFile: z.string().optional(),
  format: z.enum(["program", "stack", "yaml"], { error: "--format must be program, stack or yaml" }),
  stack: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, { error: "--stack must be a stack name (letters, digits, '-', '_', '.')" }),
});
const AuditOpts = z.object({
  stack: z.array(z.string()),
  state: z.array(z.string()),
  only: Only,
  json: z.boolean(),
  baseUrl: z.string().optional(),
  cwd: z.string().optional(),
});
const DriftOpts = z.object({ stack: z.string(), json: z.boolean(), cwd: z.string().optional() });
const RecoverOpts = z.object({
  stack: z.string(),
  alsoStack: z.array(z.string()),
  alsoState: z.array(z.string()),
  before: z.string().optional(),
  json: z.boolean(),
  dryRun: z.boolean(),
  baseUrl: z.string().optional(),
  cwd: z.string().optional(),
});
const TestCallOpts = z.object({
  to: z.string(),
  from: z.string(),
  agent: z.string().optional(),
  events: z.array(z.string()).optional(),
  say: z.array(z.string()),
  listen: z.number().optional(),
  timeout: z.number(),
  json: z.boolean(),
  baseUrl: z.string().optional(),
  stack: z.string().optional(),
  cwd: z.string().optional(),
});
const SnapshotOpts = z.object({
  out: z.string(),
  stack: z.string().optional(),
  baseUrl: z.string().optional(),
  cwd: z.string().optional(),
});

/**
 * Runs the `voiceagent` command with `argv` (the arguments after the program name) and returns
 * its exit code. Every failure is one line on stderr; nothing is printed after it.
 * @example
 * process.exitCode = await runCli(["audit", "--stack", "prod"], processIo());
 */
export function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // The CLI's edge: one host per run (provider/host.ts) holds the token's redaction, the clients'
  // pacers and whatever the kit keeps while the command runs.
  return new Host().run(() => commands(argv, io));
}

async function commands(argv: readonly string[], io: CliIo): Promise<number> {
  let code: ExitCode = EXIT.clean;
  /** Whether the command that runs was asked for JSON: then its failure is JSON too. */
  let json = false;
  const program = new Command()
    .name("voiceagent")
    .description("Pipelines for the voice agent service: adopt a live account, audit it against stacks, report drift.")
    .version(PACKAGE_VERSION)
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride()
    .hook("preAction", (_program, command) => {
      json = command.opts<{ json?: boolean }>().json === true;
    });

  program
    .command("pull")
    .description(
      "Write a Pulumi project (TypeScript, or Pulumi YAML with --format yaml) that adopts every agent, voice, action, " +
        "webhook and bound number of the account.",
    )
    .option("--out <dir>", "folder to write the project to", "./voiceagent-pulled")
    .option("--only <kinds>", `comma-separated subset of ${ACCOUNT_COLLECTIONS.join(",")}`, only)
    .option("--json", "print the plan as JSON instead of writing files", false)
    .option("--force", "write into a folder that is not empty (overwrites the project's files)", false)
    .option("--base-url <url>", "the service's address (else VOICEAGENT_BASE_URL)")
    .option("--name <project>", "the Pulumi project name (default: the folder's name)")
    .option(
      "--import-file <file>",
      "also write a `pulumi import --file` file; the program then uses pulumi-voiceagent/native",
    )
    .option(
      "--format <format>",
      "program: an index.ts declaring every object; stack: the objects as data in Pulumi.<stack>.yaml, read by a " +
        "three-line Fleet program; yaml: a Pulumi YAML program (its prompts stored as secret config of --stack)",
      "program",
    )
    .option(
      "--stack <name>",
      "with --format stack: the stack whose file is written; with yaml: the stack (created if missing) holding the prompts",
      "dev",
    )
    .addHelpText(
      "after",
      `${CREDENTIALS}\n${EXIT_CODES.replace(", 3 found something (drift, unmanaged or missing objects)", "")}`,
    )
    .action(async (raw: unknown) => {
      code = await pull(PullOpts.parse(raw), io);
    });

  program
    .command("audit")
    .description(
      "Compare the account with stacks' state: unmanaged objects, managed objects that are gone, numbers bound to unmanaged agents.",
    )
    .option(
      "--stack <name>",
      "a stack of the project in --cwd, read with `pulumi stack export` (repeatable)",
      collect,
      [],
    )
    .option("--state <file>", "a file written by `pulumi stack export --file` (repeatable)", collect, [])
    .option("--only <kinds>", `comma-separated subset of ${ACCOUNT_COLLECTIONS.join(",")}`, only)
    .option("--json", "print the report as JSON", false)
    .option("--base-url <url>", "the service's address (else VOICEAGENT_BASE_URL, else the first stack's config)")
    .option("--cwd <dir>", "the Pulumi project folder for --stack (default: the working directory)")
    .addHelpText("after", `${CREDENTIALS}\n${EXIT_CODES}`)
    .action(async (raw: unknown) => {
      const o = AuditOpts.parse(raw);
      code = await audit(
        { stacks: o.stack, states: o.state, only: o.only, json: o.json, baseUrl: o.baseUrl, cwd: o.cwd },
        io,
      );
    });

  program
    .command("drift")
    .description(
      "Run `pulumi preview --refresh` on a stack (Automation API) and print per resource the properties that differ, secrets masked.",
    )
    .requiredOption("--stack <name>", "the stack to check")
    .option("--json", "print the report as JSON", false)
    .option("--cwd <dir>", "the Pulumi project folder (default: the working directory)")
    .addHelpText(
      "after",
      `\nCredentials are the stack's own (voiceagent:baseUrl / voiceagent:token config, or the environment).\nNeeds ` +
        `@pulumi/pulumi installed next to this package.\n${EXIT_CODES}`,
    )
    .action(async (raw: unknown) => {
      code = await drift(DriftOpts.parse(raw), io);
    });

  program
    .command("snapshot")
    .description(
      "Write the ids the account holds to a file: run it right before `pulumi up`, so that `recover --before` can tell what the up made.",
    )
    .requiredOption("--out <file>", "the file to write")
    .option("--stack <name>", "a stack whose voiceagent:baseUrl / voiceagent:token config supplies what is missing")
    .option("--base-url <url>", "the service's address (else VOICEAGENT_BASE_URL, else the stack's config)")
    .option("--cwd <dir>", "the Pulumi project folder for --stack (default: the working directory)")
    .addHelpText(
      "after",
      `${CREDENTIALS}\n${EXIT_CODES.replace(", 3 found something (drift, unmanaged or missing objects)", "")}`,
    )
    .action(async (raw: unknown) => {
      code = await snapshot(SnapshotOpts.parse(raw), io);
    });

  program
    .command("recover")
    .description(
      "After an interrupted `pulumi up`, settle the creates of this provider it left pending: what they made is put " +
        "in the state when there is evidence; what never reached the service is dropped.",
    )
    .requiredOption("--stack <name>", "the stack the interrupted up ran on")
    .option(
      "--before <file>",
      "the `voiceagent snapshot` file taken before the interrupted up: without it nothing is adopted by content",
    )
    .option(
      "--also-stack <name>",
      "another stack whose objects are never adopted (repeatable; every stack `pulumi stack ls` shows is read anyway)",
      collect,
      [],
    )
    .option(
      "--also-state <file>",
      "an export (`pulumi stack export --file`) of a stack elsewhere whose objects are never adopted (repeatable)",
      collect,
      [],
    )
    .option("--dry-run", "say what would be done, and change nothing", false)
    .option("--json", "print the decisions as JSON", false)
    .option("--base-url <url>", "the service's address (else VOICEAGENT_BASE_URL, else the stack's config)")
    .option("--cwd <dir>", "the Pulumi project folder (default: the working directory)")
    .addHelpText(
      "after",
      `\nRun \`pulumi cancel\` first if the stack is still locked by the interrupted run; then this, then \`pulumi ` +
        `refresh\`, then \`pulumi up\`.\nIt edits only the stack's state (pulumi stack import), and refuses when the ` +
        `stack holds other pending operations (an import would drop them) or changed since it was read; the service is ` +
        `only read.\n${CREDENTIALS}\n${EXIT_CODES.replace("drift, unmanaged or missing objects", "pending creates that need a look")}`,
    )
    .action(async (raw: unknown) => {
      code = await recover(RecoverOpts.parse(raw), io);
    });

  program
    .command("test-call")
    .description(
      "Against the emulator (started with --calls): ring a number, check that its agent answers and that the agent's " +
        "webhook gets the call's events.",
    )
    .requiredOption("--to <number>", "the number to call (E.164): one of the account's lines")
    .option("--from <number>", "the caller's number (E.164)", "+15005550006")
    .option("--agent <id>", "the agent that must answer (e.g. `pulumi stack output` of the agent's id)")
    .option(
      "--events <names>",
      "comma-separated events that must be delivered (default: those the agent's webhook subscribes to that a call sends)",
      (v: string) =>
        v
          .split(",")
          .map((e) => e.trim())
          .filter(Boolean),
    )
    .option("--say <line>", "a line the caller says (repeatable; default: one greeting)", collect, [])
    .option(
      "--listen <port>",
      "run a receiver on 127.0.0.1:PORT for the call and check it got every event (the webhook's url must point at it)",
      port,
    )
    .option("--timeout <seconds>", "how long to wait for the call to end and its events to settle", positive, 60)
    .option("--json", "print the report as JSON", false)
    .option("--base-url <url>", "the emulator's address (else VOICEAGENT_BASE_URL, else the stack's config)")
    .option("--stack <name>", "a stack whose voiceagent:baseUrl / voiceagent:token config supplies what is missing")
    .option("--cwd <dir>", "the Pulumi project folder for --stack (default: the working directory)")
    .addHelpText(
      "after",
      `\nIt places one call on the emulator (its admin API) and changes nothing else.\n${CREDENTIALS}\n${EXIT_CODES.replace(
        "drift, unmanaged or missing objects",
        "the call reached another agent or none, or an event did not arrive",
      )}`,
    )
    .action(async (raw: unknown) => {
      const { say, ...o } = TestCallOpts.parse(raw);
      code = await testCall({ ...o, script: say }, io);
    });

  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.clean : EXIT.error;
    const failure = cliError(err);
    if (json) io.stdout(failureJson(failure));
    io.stderr(`voiceagent: error: ${failure.message}\n`);
    return EXIT.error;
  }
}
