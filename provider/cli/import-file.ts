import { tokenOf } from "../identity.js";
import { PACKAGE_VERSION } from "../client/index.js";
import type { PlannedResource, PullPlan } from "./plan.js";

/** The arguments that adopt an object on the dynamic path; an imported resource has none. */
export const ADOPT_ARGS: ReadonlySet<string> = new Set(["agentId", "voiceId", "actionId", "webhookId"]);

/** One entry of `pulumi import --file`: the native type, the resource's name, the import id. */
interface ImportSpec {
  type: string;
  name: string;
  id: string;
  version: string;
}

/** A number is imported by its E.164 number; every other object by its id. */
function importId(r: PlannedResource): string {
  const number = r.args.number;
  return r.collection === "numbers" && number && "value" in number && typeof number.value === "string"
    ? number.value
    : r.id;
}

/**
 * The file `pulumi import --file <it> --generate-code=false` reads to bring every pulled object
 * into a stack of the native provider (its kinds' tokens, identity.ts), under the names the pulled
 * program declares them with, at this package's plugin version (the version the program's
 * resources register with, so the import and the program share one default provider).
 */
export function importFileText(plan: PullPlan): string {
  const resources: ImportSpec[] = plan.resources.map((r) => ({
    type: tokenOf(r.kind),
    name: r.name,
    id: importId(r),
    version: PACKAGE_VERSION,
  }));
  return `${JSON.stringify({ resources }, null, 2)}\n`;
}
