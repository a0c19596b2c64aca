import { ApiError } from "./errors.js";

// Which generation of the service's API the client talks to (docs/contract-current.md): the
// interface's, as its SDK described it in 2023, or the current one (SDK 0.0.48, 2024). Reads
// accept both; writes differ (prompt shape, voice types, clearing without null).

/** The API generations the client can speak. */
export const API_GENERATIONS = ["2023", "2024"] as const;
/** One API generation: "2023" is the interface (docs/contract.md), "2024" the current API (docs/contract-current.md). */
export type ApiGeneration = (typeof API_GENERATIONS)[number];
/** The setting: a generation, or "auto" to tell it from the service's answers. */
export type ApiSetting = ApiGeneration | "auto";

/** What the client knows about the generation it talks to, and how it came to know it. */
export interface Generation {
  /** The generation known so far, if any. */
  known(): ApiGeneration | undefined;
  /** Takes note of an answer: one that shows its generation resolves it (in "auto"). */
  observe(json: unknown): void;
  /**
   * Resolves it: known, else `probe` (a read that can tell), else 2023 when the probe could not
   * tell. A probe that fails rejects and resolves nothing (a caller that would rather assume 2023
   * answers undefined instead).
   */
  resolve(probe: () => Promise<ApiGeneration | undefined>): Promise<ApiGeneration>;
  /** How the generation in use was chosen, for every error that depends on it. */
  describe(): string;
}

/** The generation of the current API (2024) is shown by traits no interface answer has. */
export function generationOf(json: unknown): ApiGeneration | undefined {
  if (!isRecord(json)) return undefined;
  if ("total_is_estimated" in json) return "2024";
  if ("items" in json && Array.isArray(json.items)) {
    // A page of the interface's extension routes has no total_is_estimated.
    return "2023";
  }
  if (isRecord(json.prompt)) return "2024";
  if (json.type === "voice_base") return "2023";
  for (const key of ["inbound_agent", "agent"]) {
    const inner = generationOf(json[key]);
    if (inner) return inner;
  }
  return undefined;
}

/** Tracks the generation for one client. */
export function createGeneration(setting: ApiSetting = "auto"): Generation {
  let learned: ApiGeneration | undefined = setting === "auto" ? undefined : setting;
  let how = setting === "auto" ? "" : `voiceagent:api is ${setting}`;
  return {
    known: () => learned,
    observe(json) {
      if (setting !== "auto" || learned) return;
      const g = generationOf(json);
      if (g) {
        learned = g;
        how = `voiceagent:api is auto and the service's answers look like the ${g} API`;
      }
    },
    async resolve(probe) {
      if (learned) return learned;
      const g = await probe();
      if (g) {
        learned = g;
        how = `voiceagent:api is auto and the service's agent list looks like the ${g} API`;
        return g;
      }
      learned = "2023";
      how = "voiceagent:api is auto and nothing the service sent could tell, so the 2023 interface was assumed";
      return learned;
    },
    describe: () => `assumed API ${learned ?? "2023"}: ${how || "nothing read yet"}`,
  };
}

/**
 * A request the generation in use cannot express (clearing a field the 2024 API takes no null
 * for, a voice type it lacks). Raised before anything is sent: the service did not act.
 */
export class ApiGenerationError extends ApiError {
  override name = "ApiGenerationError";
  constructor(what: string, method: string, path: string, generation: Generation) {
    const summary = `${what} (${generation.describe()})`;
    super(`${summary}. Nothing was sent.`, {
      code: "E_GENERATION",
      status: 0,
      method,
      path,
      mayHaveActed: false,
      summary,
    });
  }
}

/**
 * Refuses, before anything is sent, a call of a route only the current API (2024) has, when the
 * service speaks the interface's (2023): `what` names the call and its route.
 */
export async function needCurrentRoute(
  resolveGeneration: () => Promise<ApiGeneration>,
  generation: Generation,
  what: string,
  route: { method: string; path: string },
): Promise<void> {
  if ((await resolveGeneration()) === "2023")
    throw new ApiGenerationError(
      `${what} needs the current API (2024); the 2023 interface has no such route`,
      route.method,
      route.path,
      generation,
    );
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
