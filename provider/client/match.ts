/**
 * Whether `live` (an object as the service returns it) holds exactly what `sent` (a request
 * body) asked for, field by field. Only the fields that were sent count. Responses embed related
 * objects where requests name them by id, so a sent id matches an embedded object with that id;
 * lists of ids and of plain values compare as unordered multisets (the service does not promise
 * an order). The top level counts only the fields sent (the service adds its own: id, user_id,
 * defaults); a nested object (an action's `config`) must hold exactly the keys sent, so that
 * `config: {}` does not match a config that holds a number.
 */
export function matchesSent(sent: unknown, live: unknown): boolean {
  return matches(sent, live, false);
}

function matches(sent: unknown, live: unknown, nested: boolean): boolean {
  if (sent === undefined) return true;
  if (sent === null || sent === "") return live === null || live === undefined || live === "";
  if (Array.isArray(sent)) {
    if (!Array.isArray(live) || live.length !== sent.length) return false;
    const want = sent.map(canonical).sort();
    const have = live.map(canonical).sort();
    return want.every((v, i) => v === have[i]);
  }
  if (typeof sent === "object") {
    if (!isRecord(live)) return false;
    if (nested && Object.entries(live).some(([key, value]) => value !== null && value !== undefined && !(key in sent)))
      return false;
    return Object.entries(sent).every(([key, value]) => matches(value, live[key], true));
  }
  if (typeof sent === "string" && isRecord(live)) return live.id === sent;
  return sent === live;
}

/** A request body as one text, keys sorted at every level: equal bodies give equal keys. */
export function bodyKey(body: unknown): string {
  return JSON.stringify(body, (_key, value: unknown) =>
    isRecord(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A comparable text for one list element: an embedded object counts by its id. */
function canonical(v: unknown): string {
  if (isRecord(v) && typeof v.id === "string") return JSON.stringify(v.id);
  return JSON.stringify(v);
}
