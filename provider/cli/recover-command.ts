import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "../client/index.js";
import { readAccount } from "./account.js";
import { resolveCredentials } from "./credentials.js";
import { EXIT, type ExitCode } from "./errors.js";
import { table, type CliIo } from "./output.js";
import { exportStack, runPulumi, type PulumiContext } from "./pulumi-cli.js";
import { decide, parseExport, settled, type Live } from "./recover.js";

/** The options of `voiceagent recover`. */
export interface RecoverOptions {
  stack: string;
  cwd?: string | undefined;
  baseUrl?: string | undefined;
  dryRun: boolean;
  json: boolean;
}

/**
 * `voiceagent recover`: after an interrupted `pulumi up` (killed, timed out), settles the creates
 * it left pending. What they made is found in the account and put into the state, so the next
 * `up` makes nothing twice; what never reached the service is dropped, so the next `up` makes it.
 * Then: `pulumi refresh`, then `pulumi up`. Exit 0 when every pending create was settled, 3 when
 * some need a look (named, never guessed), 1 on error. The service is only read.
 */
export async function recover(opts: RecoverOptions, io: CliIo): Promise<ExitCode> {
  const ctx: PulumiContext = { cwd: path.resolve(io.cwd, opts.cwd ?? "."), env: io.env };
  const source = `the export of stack ${opts.stack}`;
  // Inputs are matched in plaintext (held in memory only); the state written back keeps its ciphertext.
  const plain = parseExport(await runPulumi(ctx, ["stack", "export", "--stack", opts.stack, "--show-secrets"]), source);
  const pending = (plain.deployment.pending_operations ?? []).filter((op) => op.type === "creating");
  if (pending.length === 0) {
    io.stderr(`stack ${opts.stack} has no pending creates: nothing to recover\n`);
    return EXIT.clean;
  }
  const creds = await resolveCredentials({ baseUrl: opts.baseUrl, env: io.env, stack: { name: opts.stack, ctx } });
  const { account } = await readAccount(creds);
  const calls = pending.some((op) => op.resource.type.endsWith(":Call")) ? await createClient(creds).calls.list.all() : [];
  const live: Live = { ...account, calls };
  const managed = new Set((plain.deployment.resources ?? []).flatMap((r) => (r.id ? [r.id] : [])));
  const decisions = decide(pending, managed, live);

  if (opts.json) io.stdout(`${JSON.stringify({ stack: opts.stack, dryRun: opts.dryRun, decisions }, null, 2)}\n`);
  else io.stdout(`${table(["OUTCOME", "RESOURCE", "ID", "WHY"], decisions.map((d) => [d.outcome, d.urn.split("::").pop() ?? d.urn, d.id ?? (d.candidates ?? []).join(" "), d.why]), 90)}\n`);

  if (!opts.dryRun) {
    const edited = settled(parseExport(await exportStack(ctx, opts.stack), source), decisions);
    const dir = mkdtempSync(path.join(os.tmpdir(), "voiceagent-recover-"));
    try {
      const file = path.join(dir, "state.json");
      writeFileSync(file, JSON.stringify(edited), { mode: 0o600 });
      await runPulumi(ctx, ["stack", "import", "--stack", opts.stack, "--file", file]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    io.stderr(`settled ${decisions.length} pending creates of stack ${opts.stack}; next: \`pulumi refresh --yes\`, then \`pulumi up\`\n`);
  }
  return decisions.some((d) => d.outcome === "unresolved") ? EXIT.found : EXIT.clean;
}
