// The stack export recover reads and writes back: its pending operations, a fingerprint that
// tells whether it changed since it was read, and the edit that settles this provider's creates.
import { createHash } from "node:crypto";
import { CliError } from "./errors.js";
import type { Decision } from "./recover.js";
import { EXPORT_VERSION, StackExportSchema, type StackExport } from "./stack-export.js";

export { PendingOperationSchema, type PendingOperation, type StackExport } from "./stack-export.js";

/** Parses a stack export (one-line error naming `source` when it is not one). */
export function parseExport(text: string, source: string): StackExport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(`${source} is not JSON, so not a Pulumi stack export`);
  }
  const parsed = StackExportSchema.safeParse(json);
  if (!parsed.success || parsed.data.version !== EXPORT_VERSION)
    throw new CliError(`${source} is not a version ${EXPORT_VERSION} Pulumi stack export`);
  return parsed.data;
}

/**
 * What identifies one checkpoint: the manifest's time and magic (rewritten on every save), every
 * resource's URN, id and delete mark, and the pending operations. The same in a plain export and
 * one with --show-secrets, so the two can be compared.
 */
export function fingerprint(exported: StackExport): string {
  const d = exported.deployment;
  const parts = {
    manifest: [d.manifest.time ?? "", d.manifest.magic ?? ""],
    resources: (d.resources ?? []).map((r) => [r.urn, r.id ?? "", r.delete === true]),
    pending: (d.pending_operations ?? []).map((op) => [op.type, op.resource.urn]),
  };
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/** URNs of the resources the state holds that are not marked for deletion. */
export function liveUrns(exported: StackExport): Set<string> {
  return new Set((exported.deployment.resources ?? []).flatMap((r) => (r.delete !== true ? [r.urn] : [])));
}

/**
 * The export with this provider's pending creates settled: each adopted one becomes a resource
 * of the state (its recorded inputs as outputs until the next refresh reads the live values),
 * the others are dropped. Refuses an export that holds any other pending operation, since
 * `pulumi stack import` drops every pending operation of what it imports.
 */
export function settled(exported: StackExport, decisions: Decision[]): StackExport {
  const pending = exported.deployment.pending_operations ?? [];
  const decided = new Map(decisions.map((d) => [d.urn, d]));
  const others = pending.filter((op) => op.type !== "creating" || !decided.has(op.resource.urn));
  if (others.length > 0)
    throw new CliError(
      `the state holds ${others.length} other pending operation(s) that an import would drop: nothing was written`,
    );
  const urns = liveUrns(exported);
  const resources = [...(exported.deployment.resources ?? [])];
  for (const op of pending) {
    const d = decided.get(op.resource.urn);
    if (d?.outcome !== "adopt" || !d.id) continue;
    if (urns.has(op.resource.urn))
      throw new CliError(
        `${op.resource.urn} is already in the state: adopting would add a second resource under its URN; nothing was written`,
      );
    resources.push({ ...op.resource, id: d.id, custom: true, outputs: op.resource.inputs ?? {} });
  }
  return { ...exported, deployment: { ...exported.deployment, resources, pending_operations: [] } };
}
