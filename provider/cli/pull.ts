import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readAccount } from "./account.js";
import { resolveCredentials } from "./credentials.js";
import { CliError, errnoCode, EXIT, type ExitCode } from "./errors.js";
import { seconds, type CliIo } from "./output.js";
import { SINGULAR, type AccountCollection } from "./kinds.js";
import { importFileText } from "./import-file.js";
import { buildPlan, type PullPlan, secretsOf } from "./plan.js";
import { fleetProjectFiles, fleetSecrets } from "./stack-file.js";
import { projectFiles, projectName } from "./project-files.js";
import { runPulumi } from "./pulumi-cli.js";
import { yamlProject } from "./yaml-program.js";

/** The options of `voiceagent pull`. */
export interface PullOptions {
  out: string;
  only: AccountCollection[];
  json: boolean;
  force: boolean;
  baseUrl?: string | undefined;
  /** The Pulumi project name; the folder's name by default. */
  name?: string | undefined;
  /** Also write a `pulumi import --file` file here; the program is then written for the native provider. */
  importFile?: string | undefined;
  /**
   * `program` (index.ts declares every object), `stack` (Pulumi.<stack>.yaml holds them as the
   * fleet value) or `yaml` (a Pulumi YAML program; the prompts are stored in the stack's config).
   */
  format?: "program" | "stack" | "yaml" | undefined;
  /** With format `stack`: the stack whose file is written; with `yaml`: the stack whose config holds the prompts. */
  stack?: string | undefined;
}

/**
 * `voiceagent pull`: reads the account and writes a Pulumi project that adopts every object (or,
 * with --json, prints the plan). The folder is checked before anything is read, and nothing is
 * written unless the whole account was read.
 */
export async function pull(opts: PullOptions, io: CliIo): Promise<ExitCode> {
  const out = path.resolve(io.cwd, opts.out);
  if (opts.format !== undefined && opts.format !== "program" && opts.importFile) {
    throw new CliError(
      `--import-file and --format ${opts.format} do not go together (that format adopts by id, no import needed): ` +
        `drop one; nothing was read or written`,
    );
  }
  if (!opts.json) assertWritable(out, opts.force);
  const creds = await resolveCredentials({ baseUrl: opts.baseUrl, env: io.env });
  const { account, stats } = await readAccount(creds, opts.only);
  const plan = buildPlan(account, opts.only);
  const objects = opts.only.reduce((n, c) => n + account[c].length, 0);
  io.stderr(`read ${objects} objects in ${seconds(stats.durationMs)} (${stats.requests} requests)\n`);
  // A listing that was not whole (client/listing.ts): what it could not read is in no plan either.
  for (const c of opts.only)
    for (const u of account.gaps[c]?.unreadable ?? [])
      io.stderr(
        `not declared: ${SINGULAR[c]} ${u.id ?? "(no id)"}: the service lists it, but it could not be read (${u.why})\n`,
      );
  if (opts.json) {
    io.stdout(`${JSON.stringify(plan, null, 2)}\n`);
    return EXIT.clean;
  }
  // The formats that make a whole project with a stack (its config set through the Pulumi CLI).
  const writeStackProject =
    opts.format === "stack" ? writeFleetProject : opts.format === "yaml" ? writeYamlProject : undefined;
  if (writeStackProject)
    return writeStackProject(
      plan,
      out,
      opts.name ?? projectName(path.basename(out)),
      opts.stack ?? "dev",
      creds.baseUrl,
      io,
    );
  mkdirSync(out, { recursive: true });
  const importFile = opts.importFile && path.resolve(io.cwd, opts.importFile);
  if (importFile) writeFileSync(importFile, importFileText(plan));
  for (const [file, text] of projectFiles(plan, opts.name ?? projectName(path.basename(out)), Boolean(importFile))) {
    writeFileSync(path.join(out, file), text);
  }
  tellNotDeclared(plan, io);
  const relative = path.relative(io.cwd, out);
  const rel = relative.startsWith("..") ? out : relative || ".";
  if (importFile) {
    io.stderr(
      `wrote ${plan.resources.length} resources to ${rel}/index.ts and ${importFile}. Next:\n` +
        `  cd ${rel} && npm install && pulumi stack init <stack>\n` +
        `  pulumi config set voiceagent:baseUrl ${creds.baseUrl}\n` +
        "  pulumi config set --secret voiceagent:token   # paste the token when asked\n" +
        `  pulumi import --file ${importFile} --generate-code=false --yes   # reads each object, changes nothing\n` +
        "  pulumi preview   # should show no changes\n",
    );
    return EXIT.clean;
  }
  io.stderr(
    `wrote ${plan.resources.length} resources to ${rel}/index.ts. Next:\n` +
      `  cd ${rel} && npm install && pulumi stack init <stack>\n` +
      `  pulumi config set voiceagent:baseUrl ${creds.baseUrl}\n` +
      "  pulumi config set --secret voiceagent:token   # paste the token when asked\n" +
      supplyLines(plan, "") +
      "  pulumi preview   # review: every resource is a create that adopts an existing object\n" +
      "  pulumi up        # sends updates with the same values, creates nothing; the next preview is empty\n",
  );
  return EXIT.clean;
}

/** `--format stack`: the project whose stack file holds the account as the fleet value. */
function writeFleetProject(
  plan: PullPlan,
  out: string,
  name: string,
  stack: string,
  baseUrl: string,
  io: CliIo,
): ExitCode {
  const made = fleetProjectFiles(plan, name, stack);
  if ("problems" in made) {
    throw new CliError(
      `the account cannot be written as a fleet (a bug: please report it); nothing was written:\n${made.problems.map((p) => `  ${p}`).join("\n")}`,
    );
  }
  mkdirSync(out, { recursive: true });
  for (const [file, text] of made.files) writeFileSync(path.join(out, file), text);
  tellNotDeclared(plan, io);
  const relative = path.relative(io.cwd, out);
  const rel = relative.startsWith("..") ? out : relative || ".";
  io.stderr(
    `wrote ${plan.resources.length} objects to ${rel}/Pulumi.${stack}.yaml (the fleet) and a three-line index.ts. Next:\n` +
      `  cd ${rel} && npm install && pulumi stack init ${stack}\n` +
      `  pulumi config set voiceagent:baseUrl ${baseUrl}\n` +
      "  pulumi config set --secret voiceagent:token   # paste the token when asked\n" +
      fleetSecrets(plan, name)
        .map((s) => `  pulumi config set --path --secret '${s.path}'   # ${s.what}, never pulled\n`)
        .join("") +
      "  pulumi preview   # review: every entry adopts an existing object by its id\n" +
      "  pulumi up        # creates nothing; the next preview is empty\n",
  );
  return EXIT.clean;
}

/**
 * `--format yaml`: the Pulumi YAML project, then the stack (selected, or created in the user's
 * backend) with the service's address and each agent's prompt as a secret config value, set
 * through the `pulumi` command (the value on its stdin: never in an argument or a file).
 */
async function writeYamlProject(
  plan: PullPlan,
  out: string,
  name: string,
  stack: string,
  baseUrl: string,
  io: CliIo,
): Promise<ExitCode> {
  const project = yamlProject(plan, name);
  mkdirSync(out, { recursive: true });
  for (const [file, text] of project.files) {
    mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
    writeFileSync(path.join(out, file), text);
  }
  tellNotDeclared(plan, io);
  const relative = path.relative(io.cwd, out);
  const rel = relative.startsWith("..") ? out : relative || ".";
  const ctx = { cwd: out, env: io.env };
  try {
    await runPulumi(ctx, ["stack", "select", "--create", stack]);
    await runPulumi(ctx, ["config", "set", "voiceagent:baseUrl", baseUrl, "--stack", stack]);
    for (const [key, value] of project.secrets)
      await runPulumi(ctx, ["config", "set", "--secret", "--raw", key, "--stack", stack], value);
  } catch (err) {
    throw new CliError(
      `wrote ${rel}/Pulumi.yaml, but the stack ${stack} could not be given its config (${err instanceof Error ? err.message : String(err)}); ` +
        "the service was only read. Log in to your Pulumi backend (and set PULUMI_CONFIG_PASSPHRASE for a passphrase " +
        "stack), then run this pull again with --force",
    );
  }
  io.stderr(
    `wrote ${plan.resources.length} resources to ${rel}/Pulumi.yaml; stack ${stack} holds voiceagent:baseUrl and ` +
      `${project.secrets.size} prompts (secret). Next:\n` +
      `  cd ${rel}\n` +
      `  pulumi config set --secret voiceagent:token --stack ${stack}   # paste the token when asked\n` +
      supplyLines(plan, ` --stack ${stack}`) +
      "  pulumi preview   # review: every resource is a create that adopts an existing object\n" +
      "  pulumi up        # sends updates with the same values, creates nothing; the next preview is empty\n",
  );
  return EXIT.clean;
}

/** What the written files leave out, and why: the objects skipped, and the arguments left to the service. */
function tellNotDeclared(plan: PullPlan, io: CliIo): void {
  for (const s of plan.skipped) io.stderr(`not declared: ${SINGULAR[s.collection]} ${s.id}: ${s.reason}\n`);
  for (const l of plan.left) io.stderr(`not declared: ${SINGULAR[l.collection]} ${l.id} ${l.argument}: ${l.reason}\n`);
}

/** The commands that set each secret the pulled program reads (never pulled: the user supplies it). */
function supplyLines(plan: PullPlan, stackFlag: string): string {
  return secretsOf(plan)
    .map((s) => `  pulumi config set --secret ${s.key}${stackFlag}   # ${s.what}, never pulled\n`)
    .join("");
}

/** Refuses a path that is a file, or a folder with anything in it unless --force. */
function assertWritable(dir: string, force: boolean): void {
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory())
      throw new CliError(`--out ${dir} is a file, not a folder: choose another --out; nothing was written`);
    entries = readdirSync(dir);
  } catch (err) {
    if (err instanceof CliError) throw err;
    if (errnoCode(err) === "ENOENT") return;
    throw new CliError(
      `--out ${dir} cannot be read (${errnoCode(err) ?? String(err)}): choose another --out; nothing was written`,
    );
  }
  if (entries.length > 0 && !force) {
    throw new CliError(
      `--out ${dir} exists and is not empty: choose another --out, or pass --force to overwrite its files; nothing was written`,
    );
  }
}
