// `voiceagent snapshot`: the ids an account holds, written before a `pulumi up`. It is the
// evidence recover needs to adopt by content: an object absent from it was made after it.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { createClient, gapOf, readable } from "../client/index.js";
import { readAccount } from "./account.js";
import { resolveCredentials } from "./credentials.js";
import { CliError, cliError, EXIT, type ExitCode } from "./errors.js";
import type { CliIo } from "./output.js";
import { ACCOUNT_COLLECTIONS } from "./kinds.js";

/** The snapshot file: which service, when, and every id it listed (calls included). */
export const IdSnapshotSchema = z.object({
  version: z.literal(1),
  baseUrl: z.string(),
  takenAt: z.iso.datetime(),
  ids: z.array(z.string()),
});
/** A snapshot of the ids of an account. */
export type IdSnapshot = z.infer<typeof IdSnapshotSchema>;

/** The options of `voiceagent snapshot`. */
export interface SnapshotOptions {
  out: string;
  stack?: string | undefined;
  cwd?: string | undefined;
  baseUrl?: string | undefined;
}

/**
 * Lists every collection and the calls, and writes their ids to `out`. Run it right before
 * `pulumi up`: an object made between the two by someone else is the one case it cannot tell.
 */
export async function snapshot(opts: SnapshotOptions, io: CliIo): Promise<ExitCode> {
  const cwd = path.resolve(io.cwd, opts.cwd ?? ".");
  const stack = opts.stack ? { name: opts.stack, ctx: { cwd, env: io.env } } : undefined;
  const creds = await resolveCredentials({ baseUrl: opts.baseUrl, env: io.env, stack });
  const { account } = await readAccount(creds);
  let calls: { id: string }[];
  try {
    const listing = await createClient(creds).calls.list.listing();
    calls = [...readable(listing)];
    if (!listing.complete) account.gaps.calls = listing;
  } catch (err) {
    throw cliError(err, creds.baseUrl);
  }
  // An item that could not be read still names an object that existed (when it shows its id); one
  // without an id, or pages cut short, would leave an object out and let recover take it for new.
  const unreadIds = Object.values(account.gaps).flatMap((g) => g.unreadable.flatMap((u) => u.id ?? []));
  const holes = Object.entries(account.gaps).flatMap(([c, g]) => {
    const why = gapOf(g, new Set(unreadIds));
    return why ? [`${c}: ${why}`] : [];
  });
  if (holes.length)
    throw new CliError(
      `the account could not be listed whole (${holes.join("; ")}): a snapshot would leave objects out. Nothing was ` +
        `written; run snapshot again once the service lists them whole`,
    );
  const ids = [
    ...ACCOUNT_COLLECTIONS.flatMap((c) => account[c].map((o) => o.id)),
    ...calls.map((c) => c.id),
    ...unreadIds,
  ];
  const file: IdSnapshot = { version: 1, baseUrl: creds.baseUrl, takenAt: new Date().toISOString(), ids };
  const out = path.resolve(io.cwd, opts.out);
  writeFileSync(out, `${JSON.stringify(file)}\n`);
  io.stderr(`wrote ${ids.length} ids of ${creds.baseUrl} to ${out}\n`);
  return EXIT.clean;
}

/** Reads a snapshot file for `baseUrl`; one-line errors for a missing, foreign or other-service file. */
export function readSnapshot(file: string, baseUrl: string): IdSnapshot {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new CliError(
      `--before ${file} could not be read as JSON (${err instanceof Error ? err.message : String(err)}): write one ` +
        `with \`voiceagent snapshot --out ${file}\` before \`pulumi up\``,
    );
  }
  const parsed = IdSnapshotSchema.safeParse(json);
  if (!parsed.success) throw new CliError(`--before ${file} is not a file written by \`voiceagent snapshot\``);
  if (parsed.data.baseUrl.replace(/\/+$/, "") !== baseUrl.replace(/\/+$/, "")) {
    throw new CliError(
      `--before ${file} lists ${parsed.data.baseUrl}, not ${baseUrl}: it says nothing about this service`,
    );
  }
  return parsed.data;
}
