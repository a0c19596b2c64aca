import { currentOnlyRoutes, type Usage } from "../schemas/index.js";
import { needCurrentRoute, type ApiGeneration, type Generation } from "./generation.js";
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
      await needCurrentRoute(resolveGeneration, generation, "the usage report (GET /v1/usage)", route);
      return transport.sendRoute("getUsage", route);
    },
  };
}
