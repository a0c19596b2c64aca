import { readFileSync } from "node:fs";
import path from "node:path";
import { readAccount } from "./account.js";
import { classify, type AuditReport, type Finding } from "./audit.js";
import { resolveCredentials } from "./credentials.js";
import { CliError, errnoCode, EXIT, type ExitCode } from "./errors.js";
import { seconds, table, type CliIo } from "./output.js";
import { SINGULAR, type AccountCollection } from "./kinds.js";
import { exportStack, type PulumiContext } from "./pulumi-cli.js";
import { parseStackExport, type ManagedRef } from "./state.js";

/** The options of `voiceagent audit`. */
export interface AuditOptions {
  stacks: string[];
  states: string[];
  only: AccountCollection[];
  json: boolean;
  baseUrl?: string | undefined;
  /** The project folder for `--stack` (default: the working directory). */
  cwd?: string | undefined;
}

const WORDS: Record<Finding["finding"], string> = {
  unmanaged: "unmanaged",
  missing: "missing",
  unknown: "unknown",
  unreadable: "unreadable",
  "bound-to-unmanaged-agent": "bound to unmanaged agent",
  "managed-twice": "managed twice",
};

/**
 * `voiceagent audit`: what the account holds that the given stacks do not manage, what they
 * manage that is gone, and numbers answered by unmanaged agents. Exit 0 clean, 3 found, 1 error.
 * Every state is read before the account, so a bad file fails fast and sends no request.
 */
export async function audit(opts: AuditOptions, io: CliIo): Promise<ExitCode> {
  if (opts.stacks.length === 0 && opts.states.length === 0) {
    throw new CliError(
      "name at least one stack (--stack NAME) or exported state (--state FILE) to compare the account with",
    );
  }
  const ctx: PulumiContext = { cwd: path.resolve(io.cwd, opts.cwd ?? "."), env: io.env };
  const refs: ManagedRef[] = [];
  for (const file of opts.states)
    refs.push(...parseStackExport(readState(path.resolve(io.cwd, file), file), `--state ${file}`));
  for (const stack of opts.stacks)
    refs.push(...parseStackExport(await exportStack(ctx, stack), `the export of stack ${stack}`));
  const first = opts.stacks[0];
  const creds = await resolveCredentials({
    baseUrl: opts.baseUrl,
    env: io.env,
    stack: first ? { name: first, ctx } : undefined,
  });
  const { account, stats } = await readAccount(creds, opts.only);
  const report = classify(account, refs, opts.only);
  if (opts.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout(humanReport(report));
  io.stderr(
    `read ${Object.values(report.counts.account).reduce((a, b) => a + b, 0)} objects in ${seconds(stats.durationMs)} (${stats.requests} requests)\n`,
  );
  return report.clean ? EXIT.clean : EXIT.found;
}

function readState(file: string, shown: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new CliError(
      `--state ${shown} cannot be read (${errnoCode(err) ?? String(err)}): pass a file written by \`pulumi stack export --file <file>\``,
    );
  }
}

/** The table a person reads, and one summary line. */
export function humanReport(r: AuditReport): string {
  const managedBy = r.stacks.length ? r.stacks.join(", ") : "no resources of ours";
  if (r.clean) {
    return `clean: every object of the account is managed by the given stacks (${managedBy}), and everything they manage exists\n`;
  }
  const rows = r.findings.map((f) => [WORDS[f.finding], SINGULAR[f.collection], f.id, f.label, f.detail]);
  const counts = Object.entries(
    r.findings.reduce<Record<string, number>>((acc, f) => {
      acc[WORDS[f.finding]] = (acc[WORDS[f.finding]] ?? 0) + 1;
      return acc;
    }, {}),
  )
    .map(([k, n]) => `${n} ${k}`)
    .join(", ");
  return `${table(["FINDING", "KIND", "ID", "LABEL", "DETAIL"], rows, 110)}\n${r.findings.length} found (${counts}); stacks compared: ${managedBy}\n`;
}
