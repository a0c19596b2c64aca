import type { ApiGeneration } from "../../client/index.js";
import { inputFailure, type CheckFailure } from "./check.js";

/**
 * The preview check of a kind only the current API (2024) has (prompts, account connections,
 * vector databases): on the interface's API (2023) its routes answer 404, so it fails at preview,
 * with the generation known there (kit/runtime.ts settles it before the first check), never at up.
 */
export function needsCurrentApi(kind: string, gen: ApiGeneration): { failures?: CheckFailure[] } {
  if (gen !== "2023") return {};
  return {
    failures: [
      inputFailure(
        `voiceagent:${kind} needs the current API (2024): the service speaks the interface's API (2023), which has no ${kind}s. ` +
          "Remove it from the program, or point voiceagent:baseUrl at a service of the current API (set voiceagent:api 2024 or auto)",
      ),
    ],
  };
}
