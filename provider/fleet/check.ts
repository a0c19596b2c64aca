// Validates a fleet value before any resource is registered, so a bad stack file fails `pulumi
// preview` with no request sent. Every problem is collected (shape and references together) and
// each names its path in the stack file, the way `pulumi config set --path` writes it. No message
// repeats a value the user wrote, except a reference that looks like a name: any value may be a
// secret, and Pulumi does not tell a program which ones are.
import type { z } from "zod";
import { FleetConfigError } from "./error.js";
import { FleetSchema, FLEET_SECTIONS, KNOWN_KEYS } from "./schema.js";
import { ENTRY_SECTIONS, type EntrySection, nounOf, sectionKind } from "./sections.js";
import type { FleetSpec } from "./spec.js";

/** The outcome of checking a fleet value: the fleet, or every problem found, each naming its path. */
export type FleetCheck = { ok: true; fleet: FleetSpec } | { ok: false; problems: string[] };

/** A path as `pulumi config set --path` takes it: `fleet.agents.support.actions[0]`, `["a.b"]` for keys with dots. */
export function formatPath(source: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, seg) => {
    if (typeof seg === "number") return `${out}[${seg}]`;
    const key = String(seg);
    return /^[A-Za-z0-9_-]+$/.test(key) ? `${out}.${key}` : `${out}[${JSON.stringify(key)}]`;
  }, source);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The known keys of the object at `path`, for an unknown-key message. */
function knownAt(path: readonly PropertyKey[]): readonly string[] {
  if (path.length === 0) return KNOWN_KEYS.fleet ?? [];
  if (path.length === 3 && path[0] === "lines" && path[2] === "buy") return KNOWN_KEYS.buy ?? [];
  if (path.length === 3 && path[0] === "lines" && path[2] === "link") return KNOWN_KEYS.link ?? [];
  const section = FLEET_SECTIONS.find((s) => s === path[0]);
  return path.length === 2 && section ? (KNOWN_KEYS[section] ?? []) : [];
}

/** One line per problem zod found; never the value itself. */
function shapeProblems(issues: readonly z.core.$ZodIssue[], source: string): string[] {
  return issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      const known = knownAt(issue.path);
      return issue.keys.map(
        (k) =>
          `${formatPath(source, [...issue.path, k])}: unknown key${known.length ? ` (known: ${known.join(", ")})` : ""}`,
      );
    }
    const at = formatPath(source, issue.path);
    if (issue.code === "invalid_type" && issue.message.includes("received undefined")) return [`${at}: required`];
    if (issue.code === "invalid_key") return [`${at}: ${issue.issues[0]?.message ?? "not a valid name"}`];
    return [`${at}: ${issue.message.replace(/^Invalid input: /, "")}`];
  });
}

/** The entries of a section of the raw value that are objects, whatever else is wrong with them. */
function entriesOf(raw: unknown, section: (typeof FLEET_SECTIONS)[number]): [string, Record<string, unknown>][] {
  const s = isRecord(raw) ? raw[section] : undefined;
  return isRecord(s) ? Object.entries(s).filter((e): e is [string, Record<string, unknown>] => isRecord(e[1])) : [];
}

/** References by name, duplicates and renames, checked on the raw value so they are reported alongside shape problems. */
function referenceProblems(raw: unknown, source: string): string[] {
  const problems: string[] = [];
  // Sorted: Pulumi rewrites a stack file's maps in key order, so the file's own order is not the user's anyway.
  const keys = Object.fromEntries(
    FLEET_SECTIONS.map((s) => [
      s,
      entriesOf(raw, s)
        .map(([k]) => k)
        .sort(),
    ]),
  );
  const refer = (path: PropertyKey[], value: unknown, section: EntrySection, noun: string) => {
    if (typeof value !== "string" || value === "" || UUID.test(value)) return;
    const have = keys[section] ?? [];
    if (have.includes(value)) return;
    const listed = have.length
      ? `${section}: ${have.join(", ")}`
      : `the fleet declares no ${section}; name an existing ${noun} by its UUID`;
    problems.push(
      NAME.test(value)
        ? `${formatPath(source, path)}: no ${noun} named "${value}" (${listed})`
        : `${formatPath(source, path)}: neither a ${noun}'s name nor a UUID (${listed})`,
    );
  };
  // Each section's references, as ./sections.ts declares them: a key of the fleet or a UUID.
  for (const section of ENTRY_SECTIONS) {
    for (const [key, entry] of entriesOf(raw, section)) {
      for (const [field, target] of Object.entries(sectionKind(section).refs)) {
        const value = entry[field];
        if (Array.isArray(value))
          for (const [i, v] of value.entries()) refer([section, key, field, i], v, target, nounOf(target));
        else refer([section, key, field], value, target, nounOf(target));
      }
    }
  }
  for (const [key, line] of entriesOf(raw, "lines")) {
    refer(["lines", key, "agent"], line.agent, "agents", "agent");
    if (isRecord(line.link))
      refer(["lines", key, "link", "connection"], line.link.connection, "accountConnections", "account connection");
  }

  // One object, one entry: two entries adopting one id, or binding one number, would fight over it.
  const sameAs = (section: (typeof FLEET_SECTIONS)[number], field: string, what: string) => {
    const first = new Map<string, string>();
    for (const [key, entry] of entriesOf(raw, section)) {
      const v = entry[field];
      if (typeof v !== "string" && typeof v !== "number") continue;
      const earlier = first.get(String(v));
      if (earlier !== undefined)
        problems.push(
          `${formatPath(source, [section, key, field])}: the same ${what} as ${formatPath(source, [section, earlier, field])}`,
        );
      else first.set(String(v), key);
    }
  };
  for (const s of FLEET_SECTIONS) if (s !== "lines") sameAs(s, "id", "object");
  sameAs("lines", "number", "number");

  // A former key must be free: an alias to a resource the fleet still declares would merge two of them.
  for (const s of FLEET_SECTIONS) {
    const claimed = new Map<string, string>();
    for (const [key, entry] of entriesOf(raw, s)) {
      const former = typeof entry.was === "string" ? [entry.was] : Array.isArray(entry.was) ? entry.was : [];
      former.forEach((old, i) => {
        if (typeof old !== "string") return;
        const at = formatPath(source, Array.isArray(entry.was) ? [s, key, "was", i] : [s, key, "was"]);
        if (keys[s]?.includes(old)) problems.push(`${at}: "${old}" is still a key of ${s}; a former name must be free`);
        else if (claimed.has(old))
          problems.push(`${at}: "${old}" is also a former name of ${formatPath(source, [s, claimed.get(old) ?? ""])}`);
        else claimed.set(old, key);
      });
    }
  }
  return problems;
}

/**
 * Checks a fleet value (a stack file's `fleet`, or one a program builds): its shape, unknown keys,
 * references by name, duplicates. Sends nothing; reports every problem at once.
 * @example
 * const r = checkFleet({ agents: { support: { prompt: "Hi", voice: "warm2" } } });
 * // r.ok === false; r.problems: ['fleet.agents.support.voice: no voice named "warm2" (the fleet declares no voices; ...)']
 */
export function checkFleet(value: unknown, source = "fleet"): FleetCheck {
  const parsed = FleetSchema.safeParse(value ?? {});
  const problems = [
    ...(parsed.success ? [] : shapeProblems(parsed.error.issues, source)),
    ...referenceProblems(value, source),
  ];
  if (problems.length > 0 || !parsed.success) return { ok: false, problems: [...new Set(problems)] };
  return { ok: true, fleet: parsed.data };
}

/** The fleet, or a FleetConfigError listing every problem (`file`: where the user corrects them). */
export function parseFleet(value: unknown, source = "fleet", file?: string): FleetSpec {
  const r = checkFleet(value, source);
  if (!r.ok) throw new FleetConfigError(r.problems, source, file);
  return r.fleet;
}
