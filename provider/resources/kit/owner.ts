import type { OutputDef } from "./kind.js";

/**
 * The `userId` output every account object reports: its owner on the service. Declared once here,
 * so its doc text is written once for every kind that has it.
 */
export function ownerOutput<R extends { user_id: string }>(): OutputDef<R> {
  return {
    type: "string",
    doc: "The id of the user who owns it on the service.",
    read: (live) => live.user_id,
    fixed: true,
  };
}
