// The plugin archives, the same bytes on every run of one commit: entries in a fixed order, one
// fixed mtime (the commit's, or SOURCE_DATE_EPOCH), fixed modes, no owners (tar's portable
// mode), and a gzip header with no name or time.
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  createReadStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";

/** A file to put at the archive's root, under `name`, with `mode`. */
export interface Entry {
  name: string;
  source: string;
  mode: number;
}

/** Writes `entries` (in that order) into the gzipped tar `out`, every entry dated `mtime`. */
export async function writeArchive(out: string, entries: readonly Entry[], mtime: Date): Promise<void> {
  const stage = mkdtempSync(path.join(os.tmpdir(), "va-archive-"));
  try {
    for (const e of entries) {
      copyFileSync(e.source, path.join(stage, e.name));
      // Modes from the entry, not the umask of whoever runs the release.
      chmodSync(path.join(stage, e.name), e.mode);
    }
    await tar.create(
      { file: out, cwd: stage, gzip: true, portable: true, mtime, noDirRecurse: true },
      entries.map((e) => e.name),
    );
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** The SHA-256 of a file, in hex. */
export async function sha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest("hex");
}

/** Every file below `dir`, relative to it, sorted. */
export function filesBelow(dir: string): string[] {
  const walk = (rel: string): string[] =>
    readdirSync(path.join(dir, rel)).flatMap((name) => {
      const r = rel ? `${rel}/${name}` : name;
      return statSync(path.join(dir, r)).isDirectory() ? walk(r) : [r];
    });
  return walk("").sort();
}

/** Writes `SHA256SUMS` (the format `sha256sum -c` reads) over every other file below `dir`. */
export async function writeSums(dir: string): Promise<string> {
  const out = path.join(dir, "SHA256SUMS");
  const lines: string[] = [];
  for (const rel of filesBelow(dir))
    if (rel !== "SHA256SUMS") lines.push(`${await sha256(path.join(dir, rel))}  ${rel}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(out, `${lines.join("\n")}\n`);
  return out;
}
