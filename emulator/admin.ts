import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { FaultRuleSchema, type FaultInjector } from "./faults.js";
import type { RequestStats } from "./app.js";
import type { SeedResult } from "./seed.js";

/** What the admin routes reach. */
export interface AdminDeps {
  faults: FaultInjector;
  stats: RequestStats;
  seed: (req: FastifyRequest) => SeedResult;
}

/**
 * Admin routes (not part of the service; the same bearer tokens): fault rules at run time, seed
 * data for the caller, and request counts for benchmarks and tests.
 */
export function registerAdminRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const hide = { hide: true };
  r.get("/admin/faults", { schema: hide }, async () => ({ faults: deps.faults.list() }));
  r.post("/admin/faults", { schema: { ...hide, body: FaultRuleSchema } }, async (req) => ({ fault: deps.faults.add(req.body) }));
  r.delete("/admin/faults", { schema: hide }, async () => {
    deps.faults.clear();
    return { faults: [] };
  });
  r.post("/admin/seed", { schema: hide }, async (req) => deps.seed(req));
  r.get("/admin/stats", { schema: hide }, async () => deps.stats);
  r.post("/admin/stats/reset", { schema: hide }, async () => {
    deps.stats.total = 0;
    deps.stats.byRoute = {};
    return deps.stats;
  });
}
