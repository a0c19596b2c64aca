// The get-usage example (the schema's and the class's): the lines between the markers; the rest lets it compile.
import { getUsageOutput } from "pulumi-voiceagent";

// example begin
export const minutesThisMonth = getUsageOutput().monthlyUsageMinutes;
// example end
