import type { CheckFailure } from "./check.js";
import type { Props } from "./kind.js";

// What a kind's runtime answers, as plain values: no `pulumi.dynamic` and no protobuf types. The
// dynamic provider's adapter (dynamic.ts) and the native plugin's protobuf edge (plugin/grpc.ts)
// each convert these at their own edge.

/** How one property differs: set where it was unset, unset where it was set, or changed; and whether that replaces. */
export type DiffKind = "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";

/** The kind of a change to a property that is (or is not) replaced. */
export function diffKind(before: unknown, after: unknown, replaces: boolean): DiffKind {
  const how = before === undefined ? "add" : after === undefined ? "delete" : "update";
  return replaces ? `${how}-replace` : how;
}

/** Whether a diff kind replaces the resource. */
export const isReplace = (kind: DiffKind): boolean => kind.endsWith("-replace");

/** A check: the inputs with defaults applied, or the failures. */
export interface CheckResult {
  inputs: Props;
  failures: CheckFailure[];
}

/** A diff by the kind's own comparison: each property that differs, in the kind's order, and how. */
export interface KindDiff {
  detailed: Record<string, DiffKind>;
  /** The properties whose change replaces the object. */
  replaces: string[];
  /** A replacement deletes the old object before it makes the new one. */
  deleteBeforeReplace: boolean;
}

/** A create: the new object's id and its outputs. */
export interface CreateResult {
  id: string;
  outputs: Props;
}

/**
 * A read: the object is gone, or here are its outputs. `inputs` are what a refresh records; none
 * when the service cannot be asked for the kind, and the recorded outputs stand.
 */
export type ReadResult = { gone: true } | { gone: false; id: string; outputs: Props; inputs?: Props };

/** An update: the object's outputs after it. */
export interface UpdateResult {
  outputs: Props;
}
