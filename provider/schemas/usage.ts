import { z } from "zod";
import { openEnum } from "./open-enum.js";
import { PLAN_TYPES } from "./values.js";

/** GET /v1/usage of the current API (2024): the team's plan and this month's minutes. */
export const UsageSchema = z.looseObject({
  user_id: z.string(),
  plan_type: openEnum(PLAN_TYPES),
  monthly_usage_minutes: z.number().int(),
  /** Null on a plan without a limit. */
  monthly_usage_limit_minutes: z.number().int().nullish(),
});
/** The team's usage. */
export type Usage = z.infer<typeof UsageSchema>;
