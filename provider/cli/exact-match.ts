// The matching recover trusts: the client's field-by-field match, plus equal key sets for nested
// objects, so that a body sent with `config: {}` does not match an action whose config holds a
// number (the client's `matchesSent` counts only the keys that were sent, and `{}` sends none).
import { matchesSent } from "../client/index.js";

/**
 * Whether `live` is exactly what the create body `sent` asked for: every field sent matches (ids
 * against embedded objects, lists as multisets), and every object nested in a sent field has no
 * key with a value that was not sent. Top-level fields the service adds (id, user_id) are fine.
 */
export function matchesExactly(sent: Record<string, unknown>, live: unknown): boolean {
  if (!matchesSent(sent, live) || !isRecord(live)) return false;
  return Object.entries(sent).every(([key, value]) => sameKeys(value, live[key]));
}

function sameKeys(sent: unknown, live: unknown): boolean {
  if (!isRecord(sent) || !isRecord(live)) return true;
  const extra = Object.keys(live).filter((k) => live[k] !== null && live[k] !== undefined && !(k in sent));
  return extra.length === 0 && Object.entries(sent).every(([k, v]) => sameKeys(v, live[k]));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
