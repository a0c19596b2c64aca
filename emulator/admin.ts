import { z } from "zod";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { FaultRuleSchema, FaultSeedSchema } from "./fault-rule.js";
import type { FaultInjector } from "./faults.js";
import { issuesToDetail } from "./errors.js";
import { AddNumbersSchema, type AddNumbersInput, type AddNumbersResult } from "./fleet.js";
import { callerOf, type Caller } from "./request-context.js";
import type { SeedResult } from "./seed.js";
import { HttpFailure } from "./http-failure.js";
import { resetStats, type RequestStats } from "./stats.js";

/** What the admin routes reach. */
export interface AdminDeps {
  faults: FaultInjector;
  stats: RequestStats;
  seed: (caller: Caller) => SeedResult;
  addNumbers: (caller: Caller, input: AddNumbersInput) => AddNumbersResult;
}

/** `POST /admin/faults`: a rule, a rule and a `seed`, or a `seed` alone to reseed. */
const FaultsPostSchema = z.looseObject({ seed: FaultSeedSchema.optional() });

/**
 * Admin routes (not part of the service; the same bearer tokens): fault rules and their seed at run
 * time, seed data and fleets of numbers for the caller, and counters for benchmarks and tests.
 * Registered as a child of the app, they inherit its auth hook and error handler.
 */
export const adminRoutes: FastifyPluginAsyncZod<AdminDeps> = async (app, deps) => {
  const { faults, stats } = deps;
  const hide = { hide: true };
  const listed = () => ({ seed: faults.seed, faults: faults.list() });

  app.get("/admin/faults", { schema: hide }, async () => listed());
  app.post("/admin/faults", { schema: { ...hide, body: FaultsPostSchema } }, async (req) => {
    const { seed, ...rest } = req.body;
    const addsRule = seed === undefined || Object.keys(rest).length > 0;
    // Checked before reseeding, so a bad rule changes nothing.
    const rule = addsRule ? FaultRuleSchema.safeParse(rest) : undefined;
    if (rule && !rule.success) throw new HttpFailure(422, issuesToDetail("body", rule.error.issues));
    if (seed !== undefined) faults.reseed(seed);
    return { seed: faults.seed, ...(rule?.success ? { fault: faults.add(rule.data) } : {}) };
  });
  app.delete("/admin/faults", { schema: hide }, async () => {
    faults.clear();
    return listed();
  });

  app.post("/admin/seed", { schema: hide }, async (req) => deps.seed(callerOf(req)));
  app.post("/admin/numbers", { schema: { ...hide, body: AddNumbersSchema } }, async (req) =>
    deps.addNumbers(callerOf(req), req.body),
  );

  app.get("/admin/stats", { schema: hide }, async () => stats);
  app.post("/admin/stats/reset", { schema: hide }, async () => {
    resetStats(stats);
    return stats;
  });
};
