import { z } from "zod";
import { defineFunction } from "../kit/function.js";

/** getUsage: the team's plan and this month's minutes (GET /v1/usage, current API only). */
export const getUsage = defineFunction({
  name: "getUsage",
  doc:
    "The account's plan and this month's call minutes (GET /v1/usage). The current API (2024) only: on the 2023 " +
    "interface it fails before sending anything, saying so.",
  input: z.object({}),
  result: z.object({
    userId: z.string().meta({ description: "The id of the user who owns the account." }),
    planType: z.string().meta({
      description:
        "The account's plan: plan_free, plan_developer, plan_enterprise or plan_unlimited (a newer plan is passed through as the service names it).",
    }),
    monthlyUsageMinutes: z.number().int().meta({ description: "The minutes of calls used this month." }),
    // A plain number: the schema has no nullable integer (its JSON Schema is a union then).
    monthlyUsageLimitMinutes: z
      .number()
      .nullable()
      .meta({ description: "The monthly limit in minutes; null on a plan without one." }),
  }),
  async run(client) {
    const u = await client.usage.get();
    return {
      userId: u.user_id,
      planType: u.plan_type,
      monthlyUsageMinutes: u.monthly_usage_minutes,
      monthlyUsageLimitMinutes: u.monthly_usage_limit_minutes ?? null,
    };
  },
});
