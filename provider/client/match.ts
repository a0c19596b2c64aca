/**
 * Whether `live` (an object as the service returns it) holds exactly what `sent` (a request
 * body) asked for, field by field. Only the fields that were sent count, but those at `unechoed`
 * (dotted wire paths: the credentials a service may mask or leave out of its answers, the collection
 * table's `secrets`), which never decide. Responses embed related objects where requests name them
 * by id, so a sent id matches an embedded object with that id; lists of ids and of plain values
 * compare as unordered multisets (the service does not promise an order), each element with its
 * null members taken as absent (a service answers an optional field left out as null). The top level
 * counts only the fields sent (the service adds its own: id, user_id, defaults); a nested object (an
 * action's `config`) must hold exactly the keys sent, so that `config: {}` does not match a config
 * that holds a number.
 */
export function matchesSent(sent: unknown, live: unknown, unechoed: readonly string[] = []): boolean {
  return matches(sent, live, "", new Set(unechoed));
}

function matches(sent: unknown, live: unknown, path: string, unechoed: ReadonlySet<string>): boolean {
  if (sent === undefined || unechoed.has(path)) return true;
  if (sent === null || sent === "") return live === null || live === undefined || live === "";
  if (Array.isArray(sent)) {
    if (!Array.isArray(live) || live.length !== sent.length) return false;
    const want = sent.map(elementKey).sort();
    const have = live.map(elementKey).sort();
    return want.every((v, i) => v === have[i]);
  }
  if (typeof sent === "object") {
    if (!isRecord(live)) return false;
    const at = (key: string) => (path ? `${path}.${key}` : key);
    if (
      path &&
      Object.entries(live).some(
        ([key, value]) => value !== null && value !== undefined && !(key in sent) && !unechoed.has(at(key)),
      )
    )
      return false;
    return Object.entries(sent).every(([key, value]) => matches(value, live[key], at(key), unechoed));
  }
  if (typeof sent === "string" && isRecord(live)) return live.id === sent;
  return sent === live;
}

/**
 * A request body as one text, keys sorted at every level: equal bodies give equal keys. Fields at
 * `unechoed` (as in `matchesSent`) are left out: bodies that differ only in them make objects no
 * list can tell apart, so they are identical bodies.
 */
export function bodyKey(body: unknown, unechoed: readonly string[] = []): string {
  if (unechoed.length) return bodyKey(without(body, "", new Set(unechoed)));
  return JSON.stringify(body, (_key, value: unknown) =>
    isRecord(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

/** `v` without the members at `paths`. */
function without(v: unknown, path: string, paths: ReadonlySet<string>): unknown {
  if (!isRecord(v)) return v;
  const at = (key: string) => (path ? `${path}.${key}` : key);
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !paths.has(at(k)))
      .map(([k, x]) => [k, without(x, at(k), paths)]),
  );
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A comparable text for one list element: an embedded object counts by its id; null members count as absent. */
function elementKey(v: unknown): string {
  if (isRecord(v) && typeof v.id === "string") return JSON.stringify(v.id);
  return bodyKey(withoutNulls(v));
}

/** `v` without the null members of its objects, at any depth. */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (!isRecord(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, x]) => x !== null && x !== undefined)
      .map(([k, x]) => [k, withoutNulls(x)]),
  );
}
