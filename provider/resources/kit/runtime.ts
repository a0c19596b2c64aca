import type { z } from "zod";
import type { KindDef, Props } from "./kind.js";
import type {
  KindCheckRequest,
  KindCreateRequest,
  KindDeleteRequest,
  KindDiffRequest,
  KindReadRequest,
  KindUpdateRequest,
} from "./requests.js";
import type { CheckResult, CreateResult, KindDiff, ReadResult, UpdateResult } from "./results.js";
import { checkOf } from "./runtime/check.js";
import { createOf } from "./runtime/create.js";
import { deleteOf } from "./runtime/delete.js";
import { kindDiffOf } from "./runtime/diff.js";
import { kindPartsOf } from "./runtime/kind-parts.js";
import { readOf } from "./runtime/read.js";
import { previewUpdateOf, unsentOf, updateOf } from "./runtime/update.js";

/**
 * The provider methods of one kind, each taking one request object (kit/requests.ts: the plain
 * provider's field names, with the request's scope). Properties are the kind's own: the
 * dynamic provider's recorded key (dynamic/migration.ts) is removed by the caller (the dynamic
 * adapter, dynamic.ts, or the native plugin) before they get here.
 */
export interface KindRuntime {
  check(req: KindCheckRequest): Promise<CheckResult>;
  diff(req: KindDiffRequest): Promise<KindDiff>;
  create(req: KindCreateRequest): Promise<CreateResult>;
  read(req: KindReadRequest): Promise<ReadResult>;
  update(req: KindUpdateRequest): Promise<UpdateResult>;
  /**
   * What an update with nothing to send answers (nothing is sent): the recorded outputs, with the
   * program's values of the properties the service never sees.
   */
  unsent(req: Pick<KindUpdateRequest, "olds" | "news">): UpdateResult;
  /**
   * What a preview of an update answers (nothing is sent): the program's inputs over the recorded
   * outputs, and unknown what the update may change that the program does not give: the outputs
   * the service computes and reads back (all but the `fixed` ones), and an input the program no
   * longer sets whose value the service decides (it keeps its own, which a refresh may not have seen).
   */
  previewUpdate(req: { olds: Props; oldInputs: Props; news: Props }): Props;
  delete(req: KindDeleteRequest): Promise<void>;
}

/**
 * Wraps a kind's declaration with what every kind does alike: one module per method under
 * kit/runtime/, each given the parts every method uses (kit/runtime/kind-parts.ts).
 */
export function kindRuntime<S extends z.ZodRawShape, R extends { id: string }, W>(def: KindDef<S, R, W>): KindRuntime {
  const k = kindPartsOf(def);
  return {
    check: checkOf(k),
    diff: kindDiffOf(k),
    create: createOf(k),
    read: readOf(k),
    update: updateOf(k),
    unsent: unsentOf(k),
    previewUpdate: previewUpdateOf(k),
    delete: deleteOf(k),
  };
}
