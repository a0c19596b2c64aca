import { currentOnlyRoutes, type Usage } from "../schemas/index.js";
import { ApiGenerationError, type ApiGeneration, type Generation } from "./generation.js";
import type { Transport } from "./transport.js";

/** The client's `usage`: the team's plan and this month's minutes (GET /v1/usage, current API only). */
export function usageClient(
  transport: Transport,
  generation: Generation,
  resolveGeneration: () => Promise<ApiGeneration>,
) {
  const route = currentOnlyRoutes.getUsage;
  return {
    get: async (): Promise<Usage> => {
      if ((await resolveGeneration()) === "2023")
        throw new ApiGenerationError(
          "the usage report (GET /v1/usage) needs the current API (2024); the 2023 interface has no such route",
          route.method,
          route.path,
          generation,
        );
      return transport.sendRoute("getUsage", route);
    },
  };
}
