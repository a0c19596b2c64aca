// The stack export recover reads and writes back: its pending operations, a fingerprint that
// tells whether it changed since it was read, and the edit that settles this provider's creates.
import { createHash } from "node:crypto";
import { isUnsettled, UNSETTLED_OUTPUT } from "../resources/kit/unsettled.js";
import { CliError } from "./errors.js";
import type { Decision } from "./recover.js";
import { EXPORT_VERSION, StackExportSchema, type PendingOperation, type StackExport } from "./stack-export.js";

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
 * A resource whose create's outcome is unknown, kept in the state under a provisional id
 * (kit/unsettled.ts): recover settles it as a pending create, with the ids its collection held
 * before that create as its snapshot.
 */
export interface UnsettledResource {
  /** The resource as a pending create of its URN, type and recorded inputs. */
  op: PendingOperation;
  /** Its provisional id. */
  id: string;
  /** The ids its collection held before the create, when it recorded them. */
  before: ReadonlySet<string> | undefined;
}

/** The resources of the export that `own` accepts as this provider's and that are kept unsettled. */
export function unsettledResources(exported: StackExport, own: (op: PendingOperation) => boolean): UnsettledResource[] {
  return (exported.deployment.resources ?? []).flatMap((r): UnsettledResource[] => {
    if (r.delete === true || r.id === undefined || !isUnsettled(r.id)) return [];
    const inputs = isRecord(r.inputs) ? r.inputs : {};
    const op: PendingOperation = { type: "creating", resource: { urn: r.urn, type: r.type, inputs } };
    if (!own(op)) return [];
    const recorded = isRecord(r.outputs) ? r.outputs[UNSETTLED_OUTPUT] : undefined;
    const ids = isRecord(recorded) && Array.isArray(recorded.before) ? recorded.before : undefined;
    return [{ op, id: r.id, before: ids ? new Set(ids.filter((x): x is string => typeof x === "string")) : undefined }];
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The export with this provider's pending creates settled: each adopted one becomes a resource
 * of the state (its recorded inputs as outputs until the next refresh reads the live values),
 * the others are dropped. Refuses an export that holds any other pending operation, since
 * `pulumi stack import` drops every pending operation of what it imports.
 */
export function settled(exported: StackExport, decisions: Decision[], unsettled: Decision[] = []): StackExport {
  const pending = exported.deployment.pending_operations ?? [];
  const decided = new Map(decisions.map((d) => [d.urn, d]));
  const others = pending.filter((op) => op.type !== "creating" || !decided.has(op.resource.urn));
  if (others.length > 0)
    throw new CliError(
      `the state holds ${others.length} other pending operation(s) that an import would drop: nothing was written`,
    );
  const urns = liveUrns(exported);
  // An unsettled resource found takes the object's id (its recorded inputs as outputs until the next
  // refresh); proved never made, it leaves the state; still unresolved, it stays as it is.
  const byUrn = new Map(unsettled.map((d) => [d.urn, d]));
  const resources = (exported.deployment.resources ?? []).flatMap((r) => {
    const d = r.delete !== true && r.id !== undefined && isUnsettled(r.id) ? byUrn.get(r.urn) : undefined;
    if (!d || d.outcome === "unresolved") return [r];
    if (d.outcome === "clear" || !d.id) return [];
    const { initErrors: _, ...rest } = r;
    return [{ ...rest, id: d.id, outputs: isRecord(r.inputs) ? r.inputs : {} }];
  });
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
