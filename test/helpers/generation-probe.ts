// What a preview may send beyond the program's own lookups (issue 34 item 2): with voiceagent:api
// auto, each provider configuration reads one page of the agent list, once, to learn which API
// generation the service speaks, before its first check that depends on it answers. Never a write.

/** The emulator's route of that one read (its `stats.byRoute` key). */
export const GENERATION_PROBE = "GET /v1/agents/list";

/** The requests received since `before` (a copy of the emulator's `stats.byRoute`), by route; routes with none left out. */
export function routesSince(now: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(now)
      .map(([route, n]): [string, number] => [route, n - (before[route] ?? 0)])
      .filter(([, n]) => n > 0),
  );
}
