import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient, readable } from "../client/index.js";
import { readAccount } from "./account.js";
import { resolveCredentials } from "./credentials.js";
import { CliError, cliError, EXIT, type ExitCode } from "./errors.js";
import { table, type CliIo } from "./output.js";
import { exportStack, listStacks, runPulumi, type PulumiContext } from "./pulumi-cli.js";
import { adoptLine, decide, isOwnCreate, type Decision, type Live } from "./recover.js";
import {
  fingerprint,
  liveUrns,
  parseExport,
  settled,
  unsettledResources,
  type PendingOperation,
} from "./recover-state.js";
import { readSnapshot } from "./snapshot.js";
import { parseStackExport } from "./state.js";

/** The options of `voiceagent recover`. */
export interface RecoverOptions {
  stack: string;
  /** More stacks whose objects are never adopted (besides every stack `pulumi stack ls` shows). */
  alsoStack?: string[] | undefined;
  /** Exports (`pulumi stack export --file`) of stacks elsewhere whose objects are never adopted. */
  alsoState?: string[] | undefined;
  /** A `voiceagent snapshot` file taken before the interrupted run. */
  before?: string | undefined;
  cwd?: string | undefined;
  baseUrl?: string | undefined;
  dryRun: boolean;
  json: boolean;
}

/**
 * `voiceagent recover`: after an interrupted `pulumi up` (killed, timed out), settles the creates
 * of this provider it left pending. What they made is put into the state when there is evidence
 * (see `decide`), so the next `up` makes nothing twice; what never reached the service is
 * dropped, so the next `up` makes it. Exit 0 when every pending create was settled, 3 when some
 * need a look (named, never guessed), 1 on error or when nothing could be written. The service is
 * only read.
 */
export async function recover(opts: RecoverOptions, io: CliIo): Promise<ExitCode> {
  const ctx: PulumiContext = { cwd: path.resolve(io.cwd, opts.cwd ?? "."), env: io.env };
  const source = `the export of stack ${opts.stack}`;
  // Inputs are matched in plaintext (held in memory only); the state written back keeps its ciphertext.
  const plainText = await runPulumi(ctx, ["stack", "export", "--stack", opts.stack, "--show-secrets"]);
  const plain = parseExport(plainText, source);
  const pending = plain.deployment.pending_operations ?? [];
  const own = pending.filter(isOwnCreate);
  const others = pending.filter((op) => !isOwnCreate(op));
  // Creates a failed run kept unsettled in the state (kit/unsettled.ts) are settled the same way.
  const kept = unsettledResources(plain, isOwnCreate);
  if (own.length === 0 && kept.length === 0) {
    io.stderr(
      `stack ${opts.stack} has no pending creates of this provider: nothing to ` +
        `recover${others.length ? ` (${others.length} other pending operation(s) left as they are)` : ""}\n`,
    );
    return EXIT.clean;
  }
  const creds = await resolveCredentials({ baseUrl: opts.baseUrl, env: io.env, stack: { name: opts.stack, ctx } });
  const before = opts.before ? new Set(readSnapshot(path.resolve(io.cwd, opts.before), creds.baseUrl).ids) : undefined;
  const { managed, stacks } = await managedIds(ctx, opts, plainText);
  const { account } = await readAccount(creds);
  let calls: Live["calls"] = [];
  if ([...own, ...kept.map((u) => u.op)].some((op) => op.resource.type.endsWith(":Call"))) {
    try {
      const listing = await createClient(creds).calls.list.listing();
      calls = [...readable(listing)];
      if (!listing.complete) account.gaps.calls = listing;
    } catch (err) {
      throw cliError(err, creds.baseUrl);
    }
  }
  const pendingDecisions = decide(own, { managed, before, urns: liveUrns(plain) }, { ...account, calls });
  // Each unsettled create by the ids it recorded from before it; an object one takes, no later one takes.
  const excluded = new Map(managed);
  for (const d of pendingDecisions) if (d.outcome === "adopt" && d.id) excluded.set(d.id, opts.stack);
  const unsettled = kept.flatMap((u) => {
    const [d] = decide(
      [u.op],
      { managed: excluded, before: u.before ?? before, urns: new Set() },
      { ...account, calls },
    );
    if (d?.outcome === "adopt" && d.id) excluded.set(d.id, opts.stack);
    return d ? [d] : [];
  });
  const decisions = [...pendingDecisions, ...unsettled];

  const report = {
    stack: opts.stack,
    dryRun: opts.dryRun,
    protectedStacks: stacks,
    snapshot: Boolean(before),
    decisions,
    otherPendingOperations: others.map(describe),
  };
  if (opts.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout(render(decisions));
  const needsLook = decisions.some((d) => d.outcome === "unresolved");
  if (opts.dryRun) return needsLook ? EXIT.found : EXIT.clean;

  if (others.length > 0) {
    const lines = decisions.flatMap((d) => {
      const line = d.outcome === "adopt" && d.id ? adoptLine(d, d.id) : undefined;
      return line ? [`    ${resourceNameOf(d.urn)}: ${line}`] : [];
    });
    // A refresh drops pending updates and deletes and keeps pending creates: only creates need their owner.
    const creates = others.filter((op) => op.type === "creating");
    const next = creates.length
      ? "Settle those creates with their own provider first (an interactive `pulumi refresh` asks about each), then run recover again"
      : "Run `pulumi refresh --yes` first (it drops pending updates and deletes and keeps pending creates), then recover again";
    io.stderr(
      `nothing was written: stack ${opts.stack} also holds ${others.length} pending operation(s) recover does not own ` +
        `(${others.map(describe).join("; ")}). ` +
        "`pulumi stack import` drops every pending operation, and `pulumi refresh " +
        "--import-pending-creates` (Pulumi 3.259 to 3.274) drops the create it names without recording its resource, " +
        `so no edit keeps them. ${next}` +
        (lines.length
          ? `; or adopt what recover found in the program, keeping each line in the resource's arguments:\n${lines.join("\n")}\n`
          : ".\n"),
    );
    return EXIT.error;
  }
  // The state must still be the one decided on: an update or another recover since would be overwritten.
  const currentText = await exportStack(ctx, opts.stack);
  const current = parseExport(currentText, source);
  if (fingerprint(current) !== fingerprint(plain)) {
    throw new CliError(
      `stack ${opts.stack} changed since recover read it (another update, refresh or recover ran): nothing was written; run recover again`,
    );
  }
  const edited = settled(current, pendingDecisions, unsettled);
  const dir = mkdtempSync(path.join(os.tmpdir(), "voiceagent-recover-"));
  try {
    const file = path.join(dir, "state.json");
    writeFileSync(file, JSON.stringify(edited), { mode: 0o600 });
    await runPulumi(ctx, ["stack", "import", "--stack", opts.stack, "--file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const count = (o: Decision["outcome"], of = decisions) => of.filter((d) => d.outcome === o).length;
  const stays = count("unresolved", unsettled);
  io.stderr(
    `wrote the state of stack ${opts.stack}: ${count("adopt")} adopted as resources, ${count("clear")} dropped (the next up makes them), ` +
      (stays ? `${stays} kept unsettled (nothing is sent for them until a listing settles them), ` : "") +
      `${count("unresolved", pendingDecisions)} dropped unresolved (their objects, if made, stay unmanaged: \`voiceagent audit\` lists ` +
      `them, and the adopt lines ${opts.json ? "in each decision's paste" : "shown"} take them over); ` +
      "next: `pulumi refresh --yes`, then `pulumi up`\n",
  );
  return needsLook ? EXIT.found : EXIT.clean;
}

/** Every id a protected stack manages, by id, with the stack's name; and the stacks read. */
async function managedIds(
  ctx: PulumiContext,
  opts: RecoverOptions,
  ownExport: string,
): Promise<{ managed: Map<string, string>; stacks: string[] }> {
  const managed = new Map<string, string>();
  const add = (text: string, name: string) => {
    for (const ref of parseStackExport(text, name)) if (!managed.has(ref.id)) managed.set(ref.id, ref.stack);
  };
  add(ownExport, `the export of stack ${opts.stack}`);
  const listed = await listStacks(ctx);
  const stacks = [...new Set([...listed, ...(opts.alsoStack ?? [])])].filter((s) => s !== opts.stack);
  for (const s of stacks) add(await exportStack(ctx, s), `the export of stack ${s}`);
  for (const file of opts.alsoState ?? []) {
    let text: string;
    try {
      text = readFileSync(path.resolve(ctx.cwd, file), "utf8");
    } catch (err) {
      throw new CliError(
        `--also-state ${file} could not be read (${err instanceof Error ? err.message : String(err)})`,
      );
    }
    add(text, file);
  }
  return { managed, stacks: [opts.stack, ...stacks, ...(opts.alsoState ?? [])] };
}

function describe(op: PendingOperation): string {
  return `${op.type} ${op.resource.urn}`;
}

const resourceNameOf = (urn: string) => urn.split("::").pop() ?? urn;

function render(decisions: Decision[]): string {
  const rows = decisions.map((d) => [d.outcome, resourceNameOf(d.urn), d.id ?? (d.candidates ?? []).join(" "), d.why]);
  let text = table(["DECISION", "RESOURCE", "ID", "WHY"], rows, 200);
  for (const d of decisions) {
    const paste = d.paste ?? [];
    if (paste.length === 0) continue;
    text +=
      `\n${resourceNameOf(d.urn)}: if the interrupted run made ${paste.length > 1 ? "one of these" : "it"}, add it to ` +
      `the resource's arguments and keep it there (removing it replaces the resource), then run \`pulumi ` +
      `up\`:\n${paste.map((p) => `    ${p},`).join("\n")}\n`;
  }
  return text;
}
