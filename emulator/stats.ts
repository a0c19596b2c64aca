import type { FaultPhase } from "./fault-rule.js";

/**
 * What the emulator counted since it started or was last reset. Route keys are "METHOD /path" as
 * the request named them, without the query: "POST /v1/agents/create".
 */
export interface RequestStats {
  /** Requests received on any path but /admin, whatever their outcome (401s, 404s and injected faults included). */
  total: number;
  /** `total`, per route. */
  byRoute: Record<string, number>;
  /**
   * Writes committed, per route: POSTs whose handler succeeded, including those whose reply an
   * after-commit fault then destroyed or replaced. A test proves "no duplicates" with
   * `writes["POST /v1/agents/create"] === expected`.
   */
  writes: Record<string, number>;
  /** Requests a fault rule fired on, per phase and route. */
  faults: Record<FaultPhase, Record<string, number>>;
  /** Requests answered 429 by the rate limit (`rateLimit`), per route; empty when no limit is set. */
  rateLimited: Record<string, number>;
}

/** Fresh, zeroed counters. */
export function createStats(): RequestStats {
  return { total: 0, byRoute: {}, writes: {}, faults: { before: {}, after: {} }, rateLimited: {} };
}

/** Zeroes every counter in place, so references held by tests (`emu.stats`) stay live. */
export function resetStats(stats: RequestStats): void {
  stats.total = 0;
  stats.byRoute = {};
  stats.writes = {};
  stats.faults = { before: {}, after: {} };
  stats.rateLimited = {};
}

/** Counts one request the rate limit refused. */
export function countRateLimited(stats: RequestStats, key: string): void {
  stats.rateLimited[key] = (stats.rateLimited[key] ?? 0) + 1;
}

/** Counts one request received (any path but /admin). */
export function countRequest(stats: RequestStats, key: string): void {
  stats.total += 1;
  stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1;
}

/** Counts one committed write. */
export function countWrite(stats: RequestStats, key: string): void {
  stats.writes[key] = (stats.writes[key] ?? 0) + 1;
}

/** Counts one request a fault of `phase` fired on. */
export function countFault(stats: RequestStats, phase: FaultPhase, key: string): void {
  const byRoute = stats.faults[phase];
  byRoute[key] = (byRoute[key] ?? 0) + 1;
}
